"""The embedding and vector-index ports, and what they carry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from pipelines.ports.sparse import SparseVector


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-length vectors of a fixed dimension."""

    dimension: int

    async def embed_query(self, text: str) -> list[float]: ...

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...


# ---------------------------------------------------------------- vectors


@dataclass(frozen=True)
class IndexPoint:
    """One child chunk ready to index. `payload` follows SPEC section 2."""

    id: str
    vector: Sequence[float]
    payload: Mapping[str, Any]
    sparse: SparseVector | None = None  # pipelines.ports.sparse.encode_document of its text


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float  # dense: cosine similarity; sparse: BM25 (IDF x saturated tf); higher is closer
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class DualSearchResult:
    """Dense hits of both scopes, and (when a sparse query was given) the sparse hits."""

    core: list[SearchHit]
    personal: list[SearchHit]
    core_sparse: list[SearchHit] = field(default_factory=list)
    personal_sparse: list[SearchHit] = field(default_factory=list)


@dataclass(frozen=True)
class IndexedDocument:
    """What the index knows about one core document (see `VectorIndex.core_documents`)."""

    content_hash: str
    source_root: str | None = None  # the folder `warden ingest` found it in; None for older data
    layout: int = 0  # INDEX_LAYOUT it was indexed with (0: before layouts were recorded)


# Bumped when what is indexed for a child changes (v1: contextual header + sparse vector), so
# `warden ingest` re-indexes documents written by older code instead of skipping them.
INDEX_LAYOUT = 1
LAYOUT_KEY = "index_layout"
# An upload's points are written "pending" and published ("ready") once all of them are
# stored: search never serves a pending point (a point without the key counts as ready).
UPLOAD_STATE_KEY = "upload_state"
PENDING, READY = "pending", "ready"


@runtime_checkable
class VectorIndex(Protocol):
    """The vector store. Tenant scoping is applied inside `dual_search`, never by callers."""

    async def upsert(self, points: Sequence[IndexPoint]) -> None: ...

    async def dual_search(
        self,
        vector: Sequence[float],
        *,
        user_id: str,
        now: datetime,
        core_limit: int = 15,
        personal_limit: int = 5,
        sparse: SparseVector | None = None,
    ) -> DualSearchResult:
        """Core children (`is_temporary` false) and this user's unexpired temporary children.

        One round trip to the index; `user_id` is mandatory and goes into the filter. With a
        non-empty `sparse` query the same request also runs both searches on the sparse vectors
        (IDF applied by the index over all its points), with the same filters and limits.
        """
        ...

    async def core_documents(self) -> dict[str, IndexedDocument]:
        """`doc_id -> IndexedDocument` for every core (non-temporary) document indexed."""
        ...

    async def delete_document(self, doc_id: str) -> None:
        """Removes every point of a core document."""
        ...

    async def delete_temporary(self, doc_id: str, *, user_id: str) -> None:
        """Removes one user's temporary document (only if it is theirs)."""
        ...

    async def publish_temporary(self, doc_id: str, *, user_id: str) -> None:
        """Makes one user's pending upload searchable (its points become `READY`)."""
        ...

    async def delete_expired(self, now: datetime) -> None: ...

    async def count(self) -> int: ...

    async def ping(self) -> None:
        """Raises if the index cannot serve."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class IndexBuilder(Protocol):
    """An index whose search structure (HNSW) is built on request, not as points arrive."""

    async def optimize(self) -> None:
        """Builds it over everything written so far (blocking the caller's process is allowed:
        for `warden ingest`; a no-op where the index is already built)."""
        ...


# ---------------------------------------------------------------- PII
