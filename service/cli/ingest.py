"""`warden ingest PATH... [--delete-missing] [--json]`: progress on stderr, counts on stdout."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ingestion.indexer import ProgressEvent
from service.cli.streams import streams
from service.knowledge import KnowledgeService

COUNTS = ("added", "replaced", "skipped", "removed")


def _progress(err: TextIO) -> Callable[[ProgressEvent], None]:
    def show(event: ProgressEvent) -> None:
        chunks = f" ({event.chunks} chunks)" if event.chunks else ""
        reason = f": {event.detail}" if event.detail else ""
        print(
            f"[{event.done}/{event.total}] {event.action} {event.doc_id}{chunks}{reason}", file=err
        )

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
            paths, delete_missing=delete_missing, progress=_progress(err)
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
