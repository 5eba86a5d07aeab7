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

A shard created before hybrid search (no sparse vector) cannot gain one (Edge refuses a config
that adds vector storages), so `open` migrates it once: its points, dense vectors and payloads
are copied into a new shard with the sparse vector, which then replaces it in the folder. The
copied points have no sparse vector and no `index_layout`, so `warden ingest` re-indexes
their documents; uploads stay searchable (dense only) until they expire.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

from pipelines.ports import EmbeddingModel, IndexPoint, SparseVector, StoreUnavailable
from service.adapters.vector import edge_shard as shards
from service.adapters.vector import filters as vf
from service.adapters.vector.edge_compact import compact_shard
from service.adapters.vector.filters import IndexLocked
from service.adapters.vector.model_stamp import needs_stamp
from service.adapters.vector.qdrant_base import QdrantIndexBase, Search

_SCROLL_PAGE = 1024
_MIGRATING = ".migrating"
STAGING = ".reindexing"  # where `warden reindex` builds the new shard (edge_reindex.py)
__all__ = ["IndexLocked", "QdrantEdgeIndex"]


def _filter(conditions: list[vf.Condition]) -> qe.Filter:
    must: list[Any] = []
    must_not: list[Any] = []
    for c in conditions:
        if c.equals is not None:
            condition = qe.FieldCondition(c.key, match=qe.MatchValue(c.equals))
        else:
            condition = qe.FieldCondition(c.key, range=qe.RangeFloat(gt=c.gt, lte=c.lte))
        (must_not if c.excluded else must).append(condition)
    return qe.Filter(must=must, must_not=must_not or None)


def _migrate(path: Path, dimension: int) -> None:
    """Copies a shard without the sparse vector into one with it, in place (see module doc)."""
    old = qe.EdgeShard.load(str(path))
    new_path = path / _MIGRATING
    shutil.rmtree(new_path, ignore_errors=True)
    new = qe.EdgeShard.create(str(new_path), shards.config(dimension))
    offset: Any = None
    while True:
        request = qe.ScrollRequest(
            offset=offset, limit=_SCROLL_PAGE, with_payload=True, with_vector=True
        )
        page, offset = old.scroll(request)
        points = [qe.Point(r.id, r.vector, r.payload) for r in page]  # type: ignore[arg-type]
        if points:
            new.update(qe.UpdateOperation.upsert_points(points))
        if offset is None:
            break
    old.close()
    new.close()
    if (path / shards.MODEL_FILE).exists():
        shutil.copy2(path / shards.MODEL_FILE, new_path / shards.MODEL_FILE)
    shards.swap_in(path, new_path)


class QdrantEdgeIndex(QdrantIndexBase):
    """Build with `QdrantEdgeIndex.open(path, dimension)`; `close()` releases the folder."""

    def __init__(
        self, shard: qe.EdgeShard, lock: IO[str], dimension: int, *, offload_queries: bool
    ) -> None:
        self._shard: qe.EdgeShard | None = shard
        self._lock = lock
        self.dimension = dimension
        self.offload_queries = offload_queries
        self.hybrid = True  # `open` migrates an older shard (see the module docstring)

    @classmethod
    def open(
        cls,
        path: Path,
        dimension: int,
        *,
        model: EmbeddingModel | None = None,
        offload_queries: bool = True,
    ) -> QdrantEdgeIndex:
        """Opens (or creates) the index in `path`; raises IndexLocked if it is held, and
        EmbeddingModelMismatch if it holds another `model`'s vectors. Blocking."""
        path.mkdir(parents=True, exist_ok=True)
        lock = shards.lock(path)
        config = shards.config(dimension)
        try:
            for staging in (_MIGRATING, STAGING):  # an interrupted migration or reindex
                shutil.rmtree(path / staging, ignore_errors=True)
            stamp_now = model is not None and needs_stamp(
                shards.read_model(path),
                model,
                dimension_found=shards.dimension_on_disk(path),
                where=str(path),
            )
            if (path / shards.CONFIG_FILE).exists():
                try:
                    shard = qe.EdgeShard.load(str(path), config)
                except Exception as exc:
                    if "incompatible" not in str(exc).lower() or "bm25" not in str(exc):
                        raise
                    _migrate(path, dimension)
                    shard = qe.EdgeShard.load(str(path), config)
            else:
                shard = qe.EdgeShard.create(str(path), config)
            shards.ensure_payload_indexes(shard)
            if stamp_now and model is not None:
                shards.write_model(path, model)
        except StoreUnavailable:
            lock.close()
            raise
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
        stored = [shards.stored_point(p, self.dimension) for p in points]
        if stored:
            await self._update(qe.UpdateOperation.upsert_points(stored))

    async def _search_batch(
        self, query: list[float], sparse: SparseVector, searches: list[Search]
    ) -> list[list[qe.ScoredPoint]]:
        dense = qe.Query.Nearest(query)
        terms = qe.Query.Nearest(shards.sparse(sparse), using=vf.SPARSE) if sparse else dense
        requests = [
            qe.QueryRequest(
                limit=limit,
                query=terms if on_sparse else dense,
                filter=_filter(conds),
                with_payload=True,
            )
            for conds, limit, on_sparse in searches
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

    async def _set_payload(self, conditions: list[vf.Condition], payload: dict[str, Any]) -> None:
        await self._update(qe.UpdateOperation.set_payload_by_filter(_filter(conditions), payload))

    async def count(self) -> int:
        return await self._call(lambda s: s.count(qe.CountRequest(exact=True)), offload=False)

    async def ping(self) -> None:
        await self._call(lambda s: s.info(), offload=False)

    async def optimize(self) -> None:
        """Builds the HNSW and merges segments (run after a large ingest; not part of the port)."""
        await self._call(lambda s: s.optimize())

    async def compact(self) -> None:
        """Deleted points leave no bytes in the folder (edge_compact.py; a few seconds)."""
        await self._call(lambda s: compact_shard(s, self.dimension))

    async def close(self) -> None:
        shard, self._shard = self._shard, None
        if shard is None:
            return
        try:
            await asyncio.to_thread(shard.close)
        finally:
            self._lock.close()  # closing the handle releases the flock
