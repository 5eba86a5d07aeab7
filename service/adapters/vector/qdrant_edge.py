"""VectorIndex on Qdrant Edge (`qdrant-edge-py`): Qdrant's Rust engine in-process, on disk.

Off the event loop or not? bench/bench_vectors.py on the dev machine (2 cores, 384-d): one
filtered dual_search (a two-query batch, payloads returned) takes p50 ~0.46 ms inline vs ~0.66 ms
through asyncio.to_thread at 1k points, ~1.42 vs ~1.56 ms at 10k (+0.14-0.2 ms). The engine
releases the GIL while it searches (a spinning Python thread kept ~65% of its rate) and exact
search grows with the collection (~12 ms at 100k), so queries run in a worker thread by default:
the loop keeps serving other requests for a fifth of a millisecond. `offload_queries=False` runs
them inline. Writes, scrolls, optimize and close always run in a thread; `open` is blocking
(tens of ms, startup only). Edge never optimizes by itself: call `optimize()` after a large
ingest (10k points: 6.6 s, then dual_search p50 ~0.93 ms).
"""

from __future__ import annotations

import asyncio
import fcntl
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

from pipelines.ports import IndexPoint, StoreUnavailable
from service.adapters.vector import filters as vf
from service.adapters.vector.filters import IndexLocked
from service.adapters.vector.qdrant_base import QdrantIndexBase, Search

_LOCK_FILE = ".warden.lock"
_SCROLL_PAGE = 1024
__all__ = ["IndexLocked", "QdrantEdgeIndex"]


def _filter(conditions: list[vf.Condition]) -> qe.Filter:
    must: list[Any] = []
    for c in conditions:
        if c.equals is not None:
            must.append(qe.FieldCondition(c.key, match=qe.MatchValue(c.equals)))
        else:
            must.append(qe.FieldCondition(c.key, range=qe.RangeFloat(gt=c.gt, lte=c.lte)))
    return qe.Filter(must=must)


def _index_schema(kind: vf.IndexKind) -> Any:
    if kind == "integer":
        return qe.IntegerIndexParams(lookup=False, range=True)
    return qe.PayloadSchemaType.Keyword


def _lock(path: Path) -> IO[str]:
    handle = (path / _LOCK_FILE).open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise IndexLocked(f"vector index folder {path} is already open elsewhere") from None
    return handle


class QdrantEdgeIndex(QdrantIndexBase):
    """Build with `QdrantEdgeIndex.open(path, dimension)`; `close()` releases the folder."""

    def __init__(
        self, shard: qe.EdgeShard, lock: IO[str], dimension: int, *, offload_queries: bool
    ) -> None:
        self._shard: qe.EdgeShard | None = shard
        self._lock = lock
        self.dimension = dimension
        self.offload_queries = offload_queries

    @classmethod
    def open(cls, path: Path, dimension: int, *, offload_queries: bool = True) -> QdrantEdgeIndex:
        """Opens (or creates) the index in `path`; raises IndexLocked if it is held. Blocking."""
        path.mkdir(parents=True, exist_ok=True)
        lock = _lock(path)
        config = qe.EdgeConfig(vectors=qe.EdgeVectorParams(dimension, qe.Distance.Cosine))
        try:
            if (path / "edge_config.json").exists():
                shard = qe.EdgeShard.load(str(path), config)
            else:
                shard = qe.EdgeShard.create(str(path), config)
            indexed = shard.info().payload_schema
            for field, kind in vf.PAYLOAD_INDEXES.items():
                if field not in indexed:
                    shard.update(qe.UpdateOperation.create_field_index(field, _index_schema(kind)))
        except Exception as exc:
            lock.close()
            if "WouldBlock" in str(exc):
                raise IndexLocked(f"vector index folder {path} is locked: {exc}") from exc
            raise StoreUnavailable(f"cannot open vector index at {path}: {exc}") from exc
        return cls(shard, lock, dimension, offload_queries=offload_queries)

    async def _call[T](self, fn: Callable[[qe.EdgeShard], T], *, offload: bool = True) -> T:
        shard = self._shard
        if shard is None:
            raise StoreUnavailable("vector index is closed")
        try:
            return await asyncio.to_thread(fn, shard) if offload else fn(shard)
        except Exception as exc:
            raise StoreUnavailable(f"vector index failed: {exc}") from exc

    async def _update(self, operation: qe.UpdateOperation) -> None:
        await self._call(lambda s: s.update(operation))

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        stored = [
            qe.Point(
                vf.point_uuid(p.id), vf.check_vector(p.vector, self.dimension), vf.stored_payload(p)
            )
            for p in points
        ]
        if stored:
            await self._update(qe.UpdateOperation.upsert_points(stored))

    async def _search_batch(
        self, query: list[float], searches: list[Search]
    ) -> list[list[qe.ScoredPoint]]:
        nearest = qe.Query.Nearest(query)
        requests = [
            qe.QueryRequest(limit=limit, query=nearest, filter=_filter(conds), with_payload=True)
            for conds, limit in searches
        ]
        batch = qe.QueryBatchRequest(requests)
        return await self._call(lambda s: s.query_batch(batch), offload=self.offload_queries)

    async def _core_page(self, offset: Any) -> tuple[list[qe.Record], Any]:
        request = qe.ScrollRequest(
            offset=offset,
            limit=_SCROLL_PAGE,
            filter=_filter(vf.core_points()),
            with_payload=qe.PayloadSelector.Include(vf.CORE_DOC_FIELDS),
        )
        return await self._call(lambda s: s.scroll(request))

    async def _delete(self, conditions: list[vf.Condition]) -> None:
        await self._update(qe.UpdateOperation.delete_points_by_filter(_filter(conditions)))

    async def count(self) -> int:
        return await self._call(lambda s: s.count(qe.CountRequest(exact=True)), offload=False)

    async def ping(self) -> None:
        await self._call(lambda s: s.info(), offload=False)

    async def optimize(self) -> None:
        """Builds the HNSW and merges segments (run after a large ingest; not part of the port)."""
        await self._call(lambda s: s.optimize())

    async def close(self) -> None:
        shard, self._shard = self._shard, None
        if shard is None:
            return
        try:
            await asyncio.to_thread(shard.close)
        finally:
            self._lock.close()  # closing the handle releases the flock
