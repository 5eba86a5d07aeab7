"""What both Qdrant adapters do the same way, on top of four SDK-specific steps.

The port's searches, scrolls, deletes and payload updates are written here once, in terms of
`Condition`s (service/adapters/vector/filters.py). Each adapter provides only the round trips, in
its SDK's types: `_search_batch` (several filtered searches, dense or sparse, in one request),
`_core_page` (one scroll page of core points), `_delete` (the points matching a filter) and
`_set_payload` (keys set on the points matching a filter).

Hybrid search: `dual_search` with a sparse query sends four searches in the one request (dense
and sparse, core and personal, same filters) and returns both rankings with their own scores.
Fusion happens in the pipeline (pipelines/retrieval.py, reciprocal rank fusion): Qdrant's fused
query would replace the cosine by a rank score, and SPEC's `confidence` is the top cosine."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from pipelines.ports import (
    READY,
    UPLOAD_STATE_KEY,
    DualSearchResult,
    IndexedDocument,
    SearchHit,
    SparseVector,
)
from service.adapters.vector import filters as vf

# one search of a batch: its filter, its limit, and whether it runs on the sparse vector
Search = tuple[list[vf.Condition], int, bool]


class StoredPoint(Protocol):
    """A point as either SDK returns it (Qdrant Edge's and qdrant-client's share these)."""

    @property
    def payload(self) -> Mapping[str, Any] | None: ...


class ScoredPoint(StoredPoint, Protocol):
    @property
    def id(self) -> Any: ...

    @property
    def score(self) -> float: ...


class QdrantIndexBase(ABC):
    """The VectorIndex methods both adapters share (see the module docstring)."""

    dimension: int
    hybrid: bool  # False for an index created before sparse vectors (dense-only)

    @abstractmethod
    async def _search_batch(
        self, query: list[float], sparse: SparseVector, searches: list[Search]
    ) -> Sequence[Sequence[ScoredPoint]]:
        """One round trip: the points each search found, searches in order."""

    @abstractmethod
    async def _core_page(self, offset: Any) -> tuple[Sequence[StoredPoint], Any]:
        """One page of core points from `offset` (None: the first), with CORE_DOC_FIELDS as
        payload, and the offset of the next page (None: this was the last)."""

    @abstractmethod
    async def _delete(self, conditions: list[vf.Condition]) -> None:
        """Removes every point matching all of `conditions`."""

    @abstractmethod
    async def _set_payload(self, conditions: list[vf.Condition], payload: dict[str, Any]) -> None:
        """Sets `payload`'s keys on every point matching all of `conditions`."""

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
        query = vf.check_vector(vector, self.dimension)
        sparse = sparse if sparse and self.hybrid else SparseVector()
        scopes = [vf.core_children(), vf.personal_children(user_id, now)]
        wanted = [
            (conditions, limit, on_sparse)
            for on_sparse in (False, True)
            for conditions, limit in zip(scopes, (core_limit, personal_limit), strict=True)
        ]
        searches = [s for s in wanted if s[1] > 0 and (sparse or not s[2])]
        results = iter(await self._search_batch(query, sparse, searches) if searches else [])
        core, personal, core_sparse, personal_sparse = [
            _hits(next(results)) if search in searches else [] for search in wanted
        ]
        return DualSearchResult(core, personal, core_sparse, personal_sparse)

    async def core_documents(self) -> dict[str, IndexedDocument]:
        found: dict[str, IndexedDocument] = {}
        offset: Any = None
        while True:
            page, offset = await self._core_page(offset)
            for record in page:
                vf.note_core_document(found, record.payload)
            if offset is None:
                return found

    async def delete_document(self, doc_id: str) -> None:
        await self._delete(vf.core_document(doc_id))

    async def delete_temporary(self, doc_id: str, *, user_id: str) -> None:
        await self._delete(vf.temporary_document(doc_id, user_id))

    async def publish_temporary(self, doc_id: str, *, user_id: str) -> None:
        await self._set_payload(vf.temporary_document(doc_id, user_id), {UPLOAD_STATE_KEY: READY})

    async def delete_expired(self, now: datetime) -> None:
        await self._delete(vf.expired(now))

    async def delete_user_documents(self, user_id: str) -> None:
        await self._delete(vf.user_uploads(user_id))

    async def optimize(self) -> None:  # noqa: B027 - a default, not an abstract step
        """Nothing to do for a server, whose optimizers build the HNSW index (Edge overrides)."""

    async def compact(self) -> None:  # noqa: B027 - a default, not an abstract step
        """Nothing to do for a server, which manages its own storage (Edge overrides it)."""


def _hits(points: Sequence[ScoredPoint]) -> list[SearchHit]:
    hits = [vf.to_hit(p.payload, p.score, str(p.id)) for p in points]
    return sorted(hits, key=lambda h: -h.score)
