"""VectorIndex on Qdrant Edge (`qdrant-edge-py`): Qdrant's Rust engine in-process, on disk.

Queries run in a worker thread by default (`offload_queries=False`: inline): the engine
releases the GIL while it searches, and a search costs +0.14-0.2 ms through the thread
(bench/bench_vectors.py). Writes, scrolls, optimize and close always run in a thread; `open` is
blocking. Edge never builds its HNSW index by itself, and holds the GIL while it does:
`warden ingest` calls `optimize()` at its end, and `warden serve` builds it aside in a child
process once `optimize_after` points were written (edge_aside.py). A shard created before
hybrid search (no sparse vector) is migrated once by `open` (edge_shard.migrate); the copied
points have no sparse vector and no `index_layout`, so `warden ingest` re-indexes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

from pipelines.ports import EmbeddingModel, IndexPoint, SparseVector, StoreUnavailable
from service.adapters.vector import edge_aside as aside
from service.adapters.vector import edge_shard as shards
from service.adapters.vector import filters as vf
from service.adapters.vector.edge_compact import compact_shard
from service.adapters.vector.filters import IndexLocked
from service.adapters.vector.model_stamp import needs_stamp
from service.adapters.vector.qdrant_base import QdrantIndexBase, Search

log = logging.getLogger("warden.vector")
STAGING = ".reindexing"  # where `warden reindex` builds the new shard (edge_reindex.py)
__all__ = ["IndexLocked", "QdrantEdgeIndex"]


class QdrantEdgeIndex(QdrantIndexBase):
    """Build with `QdrantEdgeIndex.open(path, dimension)`; `close()` releases the folder."""

    def __init__(
        self,
        shard: qe.EdgeShard,
        lock: IO[str],
        dimension: int,
        *,
        offload_queries: bool,
        path: Path | None = None,
    ) -> None:
        self._shard: qe.EdgeShard | None = shard
        self._lock = lock
        self.dimension = dimension
        self.offload_queries = offload_queries
        self.hybrid = True  # `open` migrates an older shard (see the module docstring)
        self._path = path
        self._gate = aside.Gate()
        self.optimize_after: int | None = None  # points written before a build aside (serve)
        self.unindexed, self.builds = 0, 0  # points written since the last build; builds aside
        self._building: asyncio.Task[bool] | None = None
        self._children: set[subprocess.Popen[bytes]] = set()  # a build aside's child process
        self._compactions = 0

    @classmethod
    def open(
        cls,
        path: Path,
        dimension: int,
        *,
        model: EmbeddingModel | None = None,
        offload_queries: bool = True,
        optimize_after: int | None = None,
    ) -> QdrantEdgeIndex:
        """Opens (or creates) the index in `path`; raises IndexLocked if it is held, and
        EmbeddingModelMismatch if it holds another `model`'s vectors. Blocking. With
        `optimize_after`, the HNSW index is built aside (`optimize_aside`) in the background
        once that many points were written since the last build."""
        path.mkdir(parents=True, exist_ok=True)
        lock = shards.lock(path)
        config = shards.config(dimension)
        try:
            for staging in (shards.MIGRATING, STAGING, aside.OPTIMIZING):  # interrupted ones
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
                    shards.migrate(path, dimension)
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
        index = cls(shard, lock, dimension, offload_queries=offload_queries, path=path)
        index.optimize_after = optimize_after
        return index

    async def _call[T](self, fn: Callable[[qe.EdgeShard], T], *, offload: bool = True) -> T:
        async with self._gate.using():
            shard = self._shard  # a build aside may have replaced it meanwhile
            if shard is None:
                raise StoreUnavailable("vector index is closed")
            try:
                return await asyncio.to_thread(fn, shard) if offload else fn(shard)
            except Exception as exc:
                raise StoreUnavailable(f"vector index failed: {exc}") from exc

    async def _update(self, operation: qe.UpdateOperation) -> None:
        async with self._gate.writes:
            await self._call(lambda s: s.update(operation))
            self._gate.record(operation)

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        stored = [shards.stored_point(p, self.dimension) for p in points]
        if stored:
            await self._update(qe.UpdateOperation.upsert_points(stored))
            self.unindexed += len(stored)
            due = self.optimize_after is not None and self.unindexed >= self.optimize_after
            if due and self._building is None:
                self._building = asyncio.create_task(self._build_aside())

    async def _search_batch(
        self, query: list[float], sparse: SparseVector, searches: list[Search]
    ) -> list[list[qe.ScoredPoint]]:
        dense = qe.Query.Nearest(query)
        terms = qe.Query.Nearest(shards.sparse(sparse), using=vf.SPARSE) if sparse else dense
        requests = [
            qe.QueryRequest(
                limit=limit,
                query=terms if on_sparse else dense,
                filter=shards.edge_filter(conds),
                with_payload=True,
            )
            for conds, limit, on_sparse in searches
        ]
        batch = qe.QueryBatchRequest(requests)
        return await self._call(lambda s: s.query_batch(batch), offload=self.offload_queries)

    async def _core_page(self, offset: Any) -> tuple[list[qe.Record], Any]:
        request = qe.ScrollRequest(
            offset=offset,
            limit=shards.SCROLL_PAGE,
            filter=shards.edge_filter(vf.core_points()),
            with_payload=qe.PayloadSelector.Include(vf.CORE_DOC_FIELDS),
        )
        return await self._call(lambda s: s.scroll(request))

    async def _delete(self, conditions: list[vf.Condition]) -> None:
        await self._update(
            qe.UpdateOperation.delete_points_by_filter(shards.edge_filter(conditions))
        )

    async def _set_payload(self, conditions: list[vf.Condition], payload: dict[str, Any]) -> None:
        await self._update(
            qe.UpdateOperation.set_payload_by_filter(shards.edge_filter(conditions), payload)
        )

    async def count(self) -> int:
        return await self._call(lambda s: s.count(qe.CountRequest(exact=True)), offload=False)

    async def ping(self) -> None:
        await self._call(lambda s: s.info(), offload=False)

    async def optimize(self) -> None:
        """Builds the HNSW and merges segments, in this process: Edge holds the GIL meanwhile,
        so every thread of the process waits (for `warden ingest`; serve uses optimize_aside)."""
        async with self._gate.writes:
            self.unindexed = 0
            await self._call(lambda s: s.optimize())

    def index_info(self) -> aside.IndexInfo:
        """Points, vectors in the HNSW index, and segments, as the shard reports them now."""
        if self._shard is None:
            raise StoreUnavailable("vector index is closed")
        info, graphs = self._shard.info(), aside.hnsw_segments(self._path) if self._path else 0
        counts = (info.points_count, info.indexed_vectors_count, info.segments_count)
        return aside.IndexInfo(*counts, hnsw_segments=graphs)

    async def optimize_aside(self) -> bool:
        """Builds the HNSW on a copy in a child process and swaps it in (edge_aside.py), while
        searches go on. False (nothing swapped) if a compaction ran meanwhile."""
        if self._path is None:
            raise StoreUnavailable("this index was opened without its folder")
        path, gate = self._path, self._gate
        async with gate.writes:
            compactions, self.unindexed = self._compactions, 0
            staged = await self._call(lambda s: aside.copy_flushed(s, path, shards.LOCK_FILE))
            gate.replay = []
        try:
            await asyncio.to_thread(aside.optimize_in_child, staged, self._children)
        except BaseException:
            gate.replay = None
            shutil.rmtree(staged, ignore_errors=True)
            raise
        async with gate.writes, gate.closed():
            replay, gate.replay = gate.replay, None
            if compactions != self._compactions or self._shard is None:  # keep the erasure
                shutil.rmtree(staged, ignore_errors=True)
                return False
            self._shard = await asyncio.to_thread(aside.swap, self._shard, path, staged, replay)
        self.builds += 1
        return True

    async def _build_aside(self) -> bool:
        try:
            return await self.optimize_aside()
        except Exception as exc:  # noqa: BLE001 - retried after `optimize_after` more points
            log.warning("building the vector index aside failed: %s", type(exc).__name__)
            return False
        finally:
            self._building = None

    async def compact(self) -> None:
        """Deleted points leave no bytes in the folder (edge_compact.py; a few seconds)."""
        async with self._gate.writes:
            self._compactions += 1
            await self._call(lambda s: compact_shard(s, self.dimension))

    async def close(self) -> None:
        building = self._building
        if building is not None:  # stopped: its copy is removed now or at the next open
            for child in list(self._children):
                child.kill()
            with contextlib.suppress(Exception):
                await building
        shard, self._shard = self._shard, None
        if shard is None:
            return
        try:
            await asyncio.to_thread(shard.close)
        finally:
            self._lock.close()  # closing the handle releases the flock
