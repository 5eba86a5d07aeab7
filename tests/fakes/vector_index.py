"""FakeVectorIndex: an in-memory VectorIndex with exact cosine scores (the reference semantics).

Sparse search is BM25 as Qdrant's IDF modifier computes it: the dot product of the query and a
point's sparse vector, each term weighted by `ln(1 + (N - n + 0.5) / (n + 0.5))`, where N counts
the points that have a sparse vector and n those that have the term (filters do not change N)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pipelines.ports import (
    LAYOUT_KEY,
    PENDING,
    READY,
    UPLOAD_STATE_KEY,
    DualSearchResult,
    IndexedDocument,
    IndexPoint,
    SearchHit,
    SparseVector,
    StoreUnavailable,
)

Payload = Mapping[str, Any]


def _epoch(now: datetime) -> float:
    """Epoch seconds; a naive datetime is read as UTC."""
    return (now if now.tzinfo else now.replace(tzinfo=UTC)).timestamp()


def _is_core_child(p: Payload) -> bool:
    return p.get("chunk_type") == "child" and p.get("is_temporary") is not True


def _is_personal_child(p: Payload, user_id: str, now_s: float) -> bool:
    expires = p.get("expires_at")
    return (
        p.get("chunk_type") == "child"
        and p.get("is_temporary") is True
        and p.get("uploaded_by") == user_id
        and isinstance(expires, int | float)
        and expires > now_s
        and p.get(UPLOAD_STATE_KEY) != PENDING
    )


def _is_upload_of(p: Payload, doc_id: str, user_id: str) -> bool:
    return (
        p.get("doc_id") == doc_id
        and p.get("is_temporary") is True
        and p.get("uploaded_by") == user_id
    )


def _idf(points: Sequence[IndexPoint]) -> dict[int, float]:
    having: dict[int, int] = {}
    vectors = [p.sparse for p in points if p.sparse]
    for vector in vectors:
        for index in vector.indices:
            having[index] = having.get(index, 0) + 1
    total = len(vectors)
    return {i: math.log(1 + (total - n + 0.5) / (n + 0.5)) for i, n in having.items()}


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class FakeVectorIndex:
    """Same semantics as the Qdrant adapters; `searches` counts dual_search round trips."""

    def __init__(self, dimension: int | None = None) -> None:
        self.dimension = dimension
        self.points: dict[str, IndexPoint] = {}
        self.searches = 0
        self.closed = False

    def _check(self, vector: Sequence[float]) -> None:
        if self.dimension is not None and len(vector) != self.dimension:
            raise ValueError(f"vector of {len(vector)} dims, index has {self.dimension}")

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        for point in points:
            self._check(point.vector)
        for point in points:
            stored = IndexPoint(point.id, list(point.vector), dict(point.payload), point.sparse)
            self.points[point.id] = stored

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
        if not user_id:
            raise ValueError("dual_search needs a user_id")
        self._check(vector)
        self.searches += 1
        now_s = _epoch(now)

        def mine(p: Payload) -> bool:
            return _is_personal_child(p, user_id, now_s)

        def dense(p: IndexPoint) -> float:
            return _cosine(vector, p.vector)

        result = DualSearchResult(
            core=self._top(dense, _is_core_child, core_limit),
            personal=self._top(dense, mine, personal_limit),
        )
        if not sparse:
            return result
        idf = _idf(list(self.points.values()))
        query = dict(zip(sparse.indices, sparse.values, strict=True))

        def bm25(p: IndexPoint) -> float:
            terms = zip(p.sparse.indices, p.sparse.values, strict=True) if p.sparse else ()
            return sum(idf[i] * v * query[i] for i, v in terms if i in query)

        def matched(keep: Callable[[Payload], bool]) -> Callable[[IndexPoint], bool]:
            return lambda p: keep(p.payload) and bm25(p) > 0

        result.core_sparse.extend(self._top(bm25, matched(_is_core_child), core_limit, whole=True))
        result.personal_sparse.extend(self._top(bm25, matched(mine), personal_limit, whole=True))
        return result

    def _top(
        self,
        score: Callable[[IndexPoint], float],
        keep: Callable[..., bool],
        limit: int,
        *,
        whole: bool = False,
    ) -> list[SearchHit]:
        hits = [
            SearchHit(p.id, score(p), dict(p.payload))
            for p in self.points.values()
            if keep(p if whole else p.payload)
        ]
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits[: max(limit, 0)]

    async def core_documents(self) -> dict[str, IndexedDocument]:
        return {
            p.payload["doc_id"]: IndexedDocument(
                content_hash=p.payload.get("content_hash") or "",
                source_root=p.payload.get("source_root"),
                layout=p.payload.get(LAYOUT_KEY) or 0,
            )
            for p in self.points.values()
            if p.payload.get("is_temporary") is not True and "doc_id" in p.payload
        }

    async def delete_document(self, doc_id: str) -> None:
        self._drop(lambda p: p.get("doc_id") == doc_id and p.get("is_temporary") is not True)

    async def delete_temporary(self, doc_id: str, *, user_id: str) -> None:
        if not user_id:
            raise ValueError("delete_temporary needs a user_id")
        self._drop(lambda p: _is_upload_of(p, doc_id, user_id))

    async def delete_user_documents(self, user_id: str) -> None:
        if not user_id:
            raise ValueError("delete_user_documents needs a user_id")
        self._drop(lambda p: p.get("is_temporary") is True and p.get("uploaded_by") == user_id)

    async def compact(self) -> None:
        """Memory keeps no deleted bytes: nothing to do."""

    async def publish_temporary(self, doc_id: str, *, user_id: str) -> None:
        if not user_id:
            raise ValueError("publish_temporary needs a user_id")
        for key, p in self.points.items():
            if _is_upload_of(p.payload, doc_id, user_id):
                payload = {**p.payload, UPLOAD_STATE_KEY: READY}
                self.points[key] = IndexPoint(p.id, p.vector, payload, p.sparse)

    async def delete_expired(self, now: datetime) -> None:
        now_s = _epoch(now)
        self._drop(
            lambda p: (
                p.get("is_temporary") is True
                and isinstance(p.get("expires_at"), int | float)
                and p["expires_at"] <= now_s
            )
        )

    def _drop(self, match: Callable[[Payload], bool]) -> None:
        self.points = {k: p for k, p in self.points.items() if not match(p.payload)}

    async def count(self) -> int:
        return len(self.points)

    async def ping(self) -> None:
        if self.closed:
            raise StoreUnavailable("vector index is closed")

    async def close(self) -> None:
        self.closed = True
