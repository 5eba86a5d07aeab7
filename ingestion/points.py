"""Children -> embedded `IndexPoint`s with the SPEC section 2 payload."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ingestion.chunking import Child, split_document
from ingestion.loaders import load_document
from pipelines.ports import (
    INDEX_LAYOUT,
    LAYOUT_KEY,
    Embedder,
    IndexPoint,
    StoredChunk,
    VectorIndex,
)
from pipelines.ports.sparse import encode_document

EMBED_GROUP = 16  # texts per embed_documents call: small padded batches keep memory flat
UPSERT_GROUP = 256


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def epoch_seconds(moment: datetime) -> int:
    """Whole epoch seconds; a naive datetime is read as UTC."""
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp())


def load_children(data: bytes, filename: str, doc_id: str) -> list[Child]:
    """Blocking: parse and split. Raises the loaders' DocumentError subclasses."""
    return split_document(doc_id, load_document(data, filename))


def document_payload(
    *,
    doc_id: str,
    source: str,
    digest: str,
    is_temporary: bool,
    uploaded_by: str | None = None,
    expires_at: int | None = None,
    source_root: str | None = None,
) -> dict[str, Any]:
    """The fields every child of one document shares."""
    payload: dict[str, Any] = {
        "chunk_type": "child",
        "doc_id": doc_id,
        "source": source,
        "is_temporary": is_temporary,
        "uploaded_by": uploaded_by,
        "expires_at": expires_at,
        "content_hash": digest,
        LAYOUT_KEY: INDEX_LAYOUT,  # extension: how its children were indexed (ports.vector)
    }
    if source_root is not None:  # extension: read back by VectorIndex.core_documents()
        payload["source_root"] = source_root
    return payload


def indexed_text(child: Child) -> str:
    """What is embedded and sparse-encoded for a child: its contextual header, then its text."""
    return f"{child.header}\n{child.text}" if child.header else child.text


async def embed_points(
    children: Sequence[Child],
    shared: Mapping[str, Any],
    embedder: Embedder,
    *,
    group: int = EMBED_GROUP,
) -> list[IndexPoint]:
    points: list[IndexPoint] = []
    for first in range(0, len(children), group):
        batch = children[first : first + group]
        texts = [indexed_text(c) for c in batch]
        vectors = await embedder.embed_documents(texts)
        if len(vectors) != len(batch):
            raise RuntimeError(f"embedder returned {len(vectors)} vectors for {len(batch)} texts")
        for child, text, vector in zip(batch, texts, vectors, strict=True):
            payload = {
                **shared,
                "parent_id": child.parent_id,
                "parent_text": child.parent_text,
                "text": child.text,
                "page": child.page,
            }
            if child.header:  # extension: the contextual header indexed with the text
                payload["header"] = child.header
            points.append(IndexPoint(child.id, vector, payload, encode_document(text)))
    return points


async def upsert_all(index: VectorIndex, points: Sequence[IndexPoint]) -> None:
    for first in range(0, len(points), UPSERT_GROUP):
        await index.upsert(points[first : first + UPSERT_GROUP])


async def children_of(data: bytes, filename: str, doc_id: str) -> list[Child]:
    """`load_children` off the event loop (PDF parsing is CPU-bound)."""
    return await asyncio.to_thread(load_children, data, filename, doc_id)


def stored_text(payload: Mapping[str, Any]) -> str | None:
    """What was embedded for a stored child (`indexed_text`), rebuilt from its payload."""
    text, header = payload.get("text"), payload.get("header")
    if not isinstance(text, str) or not text:
        return None
    return f"{header}\n{text}" if isinstance(header, str) and header else text


async def reembed_points(
    chunks: Sequence[StoredChunk], embedder: Embedder, *, group: int = EMBED_GROUP
) -> tuple[list[IndexPoint], int]:
    """The stored chunks with new vectors (dense and sparse) of their stored text, ids and
    payloads unchanged; and how many had no text to embed (they are left out)."""
    usable = [(chunk, text) for chunk in chunks if (text := stored_text(chunk.payload))]
    points: list[IndexPoint] = []
    for first in range(0, len(usable), group):
        batch = usable[first : first + group]
        vectors = await embedder.embed_documents([text for _, text in batch])
        if len(vectors) != len(batch):
            raise RuntimeError(f"embedder returned {len(vectors)} vectors for {len(batch)} texts")
        for (chunk, text), vector in zip(batch, vectors, strict=True):
            points.append(IndexPoint(chunk.id, vector, chunk.payload, encode_document(text)))
    return points, len(chunks) - len(usable)
