"""Core knowledge sync (`warden ingest`) and user uploads, over the Embedder/VectorIndex ports."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from ingestion import points as pts
from ingestion.chunking import Child
from ingestion.files import SourceFile, discover, is_within
from ingestion.loaders import DocumentError, file_name, is_supported
from ingestion.report import Action, IngestReport, Progress, ProgressEvent
from pipelines.ports import (
    INDEX_LAYOUT,
    PENDING,
    UPLOAD_STATE_KEY,
    Embedder,
    IndexedDocument,
    VectorIndex,
)

__all__ = ["IngestReport", "ProgressEvent", "index_upload", "sync_folder"]


async def sync_folder(
    paths: Sequence[Path],
    embedder: Embedder,
    index: VectorIndex,
    *,
    delete_missing: bool = False,
    progress: Progress | None = None,
) -> IngestReport:
    """Makes the core documents under `paths` current: adds new, replaces changed, skips same."""
    found = await asyncio.to_thread(discover, paths)
    report = IngestReport(errors=list(found.errors))
    existing = await index.core_documents()
    seen: set[str] = set()
    for done, source in enumerate(found.files, start=1):
        if source.doc_id in seen:
            report.errors.append((str(source.path), f"another file already has id {source.doc_id}"))
            continue
        seen.add(source.doc_id)
        action, chunks, detail = await _sync_one(source, existing, embedder, index)
        if action == "failed":
            report.errors.append((source.doc_id, detail))
        else:
            setattr(report, action, getattr(report, action) + 1)
            report.chunks += chunks
        if progress:
            progress(ProgressEvent(source.doc_id, action, done, len(found.files), chunks, detail))
    if delete_missing:
        await _remove_missing(found.folders, existing, seen, index, report, progress)
    return report


async def _sync_one(
    source: SourceFile,
    existing: dict[str, IndexedDocument],
    embedder: Embedder,
    index: VectorIndex,
) -> tuple[Action, int, str]:
    try:
        data = await asyncio.to_thread(source.path.read_bytes)
    except OSError as exc:
        return "failed", 0, f"cannot read: {exc.strerror or exc}"
    digest = pts.content_hash(data)
    # same bytes from another folder (or indexed before roots were kept) is re-indexed,
    # so the document is attributed to the folder it is in now; so is one indexed by older
    # code (another INDEX_LAYOUT: no contextual header or sparse vector)
    if existing.get(source.doc_id) == IndexedDocument(digest, source.root, INDEX_LAYOUT):
        return "skipped", 0, ""
    try:
        children = await pts.children_of(data, source.path.name, source.doc_id)
    except DocumentError as exc:  # the indexed version, if any, stays
        return "failed", 0, str(exc)
    shared = pts.document_payload(
        doc_id=source.doc_id,
        source=source.path.name,
        digest=digest,
        is_temporary=False,
        source_root=source.root,
    )
    points = await pts.embed_points(children, shared, embedder)
    action: Action = "replaced" if source.doc_id in existing else "added"
    if action == "replaced":  # new ids differ from old ones, so delete first
        await index.delete_document(source.doc_id)
    await pts.upsert_all(index, points)
    return action, len(points), ""


async def _remove_missing(
    folders: list[Path],
    existing: dict[str, IndexedDocument],
    seen: set[str],
    index: VectorIndex,
    report: IngestReport,
    progress: Progress | None,
) -> None:
    """Deletes documents that came from inside the given folders and whose file is gone.

    A document indexed without a `source_root` (older data) is never deleted.
    """
    gone, unattributed = [], 0
    for doc_id in sorted(existing.keys() - seen):
        root = existing[doc_id].source_root
        if root is None:
            unattributed += 1
            continue
        if not any(is_within(Path(root), f) for f in folders):
            continue
        path = Path(root) / doc_id
        if not (path.is_file() and is_supported(path.name)):
            gone.append(doc_id)
    for done, doc_id in enumerate(gone, start=1):
        await index.delete_document(doc_id)
        report.removed += 1
        if progress:
            progress(ProgressEvent(doc_id, "removed", done, len(gone)))
    if unattributed:
        report.notes.append(
            f"kept {unattributed} document(s) indexed without their folder (older data)"
        )


async def index_upload(
    data: bytes,
    filename: str,
    *,
    user_id: str,
    doc_id: str,
    expires_at: datetime,
    embedder: Embedder,
    index: VectorIndex,
    children: Sequence[Child] | None = None,
) -> int:
    """Indexes one user's upload as temporary knowledge; returns the number of chunks.

    Its points are written pending (never searched) and published once all are stored, so a
    crash midway leaves nothing searchable.
    `children`: the upload already split (by a caller that parsed it under its own limits).
    Raises UnsupportedDocument / CorruptDocument / EmptyDocument before anything is written;
    if writing fails midway the points already written are removed again.
    """
    if not user_id:
        raise ValueError("an upload needs the uploader's user id")
    name = file_name(filename)
    if children is None:
        children = await pts.children_of(data, name, doc_id)
    shared = pts.document_payload(
        doc_id=doc_id,
        source=name,
        digest=pts.content_hash(data),
        is_temporary=True,
        uploaded_by=user_id,
        expires_at=pts.epoch_seconds(expires_at),
    )
    shared[UPLOAD_STATE_KEY] = PENDING  # unsearchable until every point is stored
    points = await pts.embed_points(children, shared, embedder)
    try:
        await pts.upsert_all(index, points)
        await index.publish_temporary(doc_id, user_id=user_id)
    except BaseException:
        with contextlib.suppress(Exception):  # the original error matters; expiry cleans up
            await index.delete_temporary(doc_id, user_id=user_id)
        raise
    return len(points)
