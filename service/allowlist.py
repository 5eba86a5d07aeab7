"""The allowlist: values the PII detector flags inside the core knowledge base itself (a public
figure's name, a helpline number, a product code). They are public corpus text, not the user's
personal data, so the retrieve step leaves them unmasked.

`warden ingest` rebuilds data_dir/allowlist.json after each sync. The file keeps the terms per
document and content hash, so a run over some folders keeps what earlier runs found in others:
    {"version": 1, "terms": [...], "documents": {doc_id: {"hash": ..., "terms": [...]}}}
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ingestion.files import discover
from ingestion.loaders import DocumentError, load_document
from ingestion.points import content_hash
from pipelines.ports import PiiDetector, VectorIndex
from service.pipeline_config import ALLOWLIST_FILE

MAX_TERM_CHARS = 100
MAX_TERMS_PER_DOCUMENT = 500


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


async def terms_of(data: bytes, filename: str, detector: PiiDetector) -> list[str]:
    """Every distinct value the detector finds in one document's text."""
    try:
        pages = await asyncio.to_thread(load_document, data, filename)
    except DocumentError:
        return []
    found: set[str] = set()
    for page in pages:
        for span in await detector.detect(page.text):
            value = page.text[span.start : span.end].strip()
            if value and len(value) <= MAX_TERM_CHARS:
                found.add(value)
    return sorted(found)[:MAX_TERMS_PER_DOCUMENT]


async def rebuild_allowlist(
    data_dir: Path, paths: Sequence[Path], index: VectorIndex, detector: PiiDetector
) -> int:
    """Brings the allowlist in line with the index's core documents; returns the term count.

    Documents whose indexed hash matches the file's entry are kept; changed or new documents
    found under `paths` are scanned again; documents no longer indexed are dropped.
    """
    path = data_dir / ALLOWLIST_FILE
    old = _read(path).get("documents", {})
    indexed = await index.core_documents()
    files = {f.doc_id: f.path for f in (await asyncio.to_thread(discover, paths)).files}
    documents: dict[str, dict[str, Any]] = {}
    for doc_id in sorted(indexed):
        digest = indexed[doc_id].content_hash
        entry = old.get(doc_id)
        if isinstance(entry, dict) and entry.get("hash") == digest:
            documents[doc_id] = entry
            continue
        source = files.get(doc_id)
        if source is None:  # indexed from a folder not given this time: keep what we had
            if isinstance(entry, dict):
                documents[doc_id] = entry
            continue
        data = await asyncio.to_thread(source.read_bytes)
        documents[doc_id] = {
            "hash": content_hash(data),
            "terms": await terms_of(data, source.name, detector),
        }
    terms = sorted({t for d in documents.values() for t in d.get("terms", [])})
    _write_atomically(path, {"version": 1, "terms": terms, "documents": documents})
    return len(terms)


def _write_atomically(path: Path, content: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(content, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, path)
