"""What `warden ingest` and `warden ask` do, once the data folder is theirs."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ingestion.indexer import ProgressEvent, sync_folder
from pipelines.ports import Embedder, PiiDetector, VectorIndex
from service.allowlist import rebuild_allowlist
from service.bootstrap import Container, build_container, open_detector, open_embedder, open_index
from service.chat_input import check_message
from service.errors import ServiceError
from service.settings import Settings

OpenContainer = Callable[[Settings], Awaitable[Container]]
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
    settings: Settings,
    paths: Sequence[Path],
    delete_missing: bool,
    as_json: bool,
    *,
    embedder: Embedder | None = None,
    index: VectorIndex | None = None,
    detector: PiiDetector | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Syncs the core knowledge, then the allowlist. Exit 1 if any file failed."""
    # resolved per call, not at import: a redirected sys.stdout (tests, embedding) is honoured
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    embedder = embedder or await open_embedder()
    index = index or await open_index(settings, embedder.dimension)
    try:
        report = await sync_folder(
            paths, embedder, index, delete_missing=delete_missing, progress=_progress(err)
        )
        terms = await rebuild_allowlist(
            settings.data_dir, paths, index, detector or await open_detector()
        )
    finally:
        await index.close()
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


async def _answer(container: Container, question: str, user: str, name: str) -> dict[str, Any]:
    try:
        check_message(question, container.settings.max_message_chars)
    except ServiceError as exc:
        return {"error": exc.code, "detail": exc.detail}
    outcome = await container.pipeline.answer(question, user_id=user, user_name=name)
    return dict(outcome.as_dict())


def _human(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"error: {result['detail']}"
    lines = [result["response"], ""]
    mode = f", mode {result['mode']}" if result.get("mode") else ""
    lines.append(f"route {result['route']}{mode}, confidence {result['confidence']:.0f}")
    for source in result.get("sources", []):
        page = f" p.{source['page']}" if source.get("page") else ""
        lines.append(f"  - {source['source']}{page} (score {source['score']:.2f})")
    return "\n".join(lines)


def _parse_line(line: str, user: str, name: str) -> tuple[str, str, str] | dict[str, str]:
    try:
        item = json.loads(line)
    except ValueError:
        return {"error": "malformed_json", "detail": "The line is not valid JSON."}
    if not isinstance(item, dict) or not isinstance(item.get("question"), str):
        return {"error": "invalid_request", "detail": 'Each line needs {"question": "..."}.'}
    return item["question"], str(item.get("user") or user), str(item.get("name") or name)


async def ask(
    settings: Settings,
    question: str | None,
    user: str,
    name: str,
    as_json: bool,
    *,
    open_container: OpenContainer = build_container,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """One question, or JSON lines from stdin (one JSON line out per line in)."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    container = await open_container(settings)
    failed = False
    try:
        if question is not None:
            result = await _answer(container, question, user, name)
            failed = "error" in result
            print(json.dumps(result) if as_json else _human(result), file=out)
            return 1 if failed else 0
        for line in stdin:
            if not line.strip():
                continue
            parsed = _parse_line(line, user, name)
            result = parsed if isinstance(parsed, dict) else await _answer(container, *parsed)
            failed = failed or "error" in result
            print(json.dumps(result), file=out, flush=True)
        return 1 if failed else 0
    finally:
        await container.close()
