"""`warden ingest PATH... [--delete-missing] [--json]`: progress on stderr, counts on stdout."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ingestion.indexer import ProgressEvent
from service.cli.streams import streams
from service.knowledge import KnowledgeService

COUNTS = ("added", "replaced", "skipped", "removed")


def progress_printer(
    err: TextIO, clock: Callable[[], float] = time.monotonic
) -> Callable[[ProgressEvent], None]:
    """One line per document: position, action, chunks; then the chunks written so far, the
    rate and the time left (at the mean time per document not skipped: a resumed run skips
    the documents it already wrote at almost no cost)."""
    started, written, worked = clock(), [0], [0]

    def show(event: ProgressEvent) -> None:
        chunks = f" ({event.chunks} chunks)" if event.chunks else ""
        reason = f": {event.detail}" if event.detail else ""
        written[0] += event.chunks
        worked[0] += event.action != "skipped"
        elapsed = max(clock() - started, 1e-9)
        left = elapsed / worked[0] * (event.total - event.done) if worked[0] else 0.0
        pace = f" | {written[0]:,} chunks, {written[0] / elapsed:.1f}/s, ~{left:.0f} s left"
        line = f"[{event.done}/{event.total}] {event.action} {event.doc_id}{chunks}{reason}"
        print(line + (pace if event.action != "removed" else ""), file=err)

    return show


async def ingest(
    knowledge: KnowledgeService,
    paths: Sequence[Path],
    delete_missing: bool,
    as_json: bool,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Syncs the core knowledge, then the allowlist. Exit 1 if any file failed."""
    out, err = streams(out, err)
    try:
        report, terms = await knowledge.sync(
            paths, delete_missing=delete_missing, progress=progress_printer(err)
        )
    finally:
        await knowledge.close()
    for doc, reason in report.errors:
        print(f"warden: failed {doc}: {reason}", file=err)
    for note in report.notes:
        print(f"warden: note: {note}", file=err)
    counts = {name: getattr(report, name) for name in COUNTS}
    if as_json:
        print(json.dumps(counts), file=out)
    else:
        print(", ".join(f"{name} {value}" for name, value in counts.items()), file=out)
        print(f"{report.chunks} chunks written; allowlist holds {terms} terms", file=err)
    return 1 if report.errors else 0
