"""`warden reindex` on Qdrant Edge: a new shard for the new model is built in a staging folder
inside the index folder (holding the folder's lock throughout), then swapped into place.

Until the swap the old shard is untouched: a reindex that is interrupted leaves the index as
it was (the staging folder is removed the next time the index opens), and a second run starts
over. Points keep their ids and payloads (expiry, owner, scope); only their vectors change."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

from pipelines.ports import EmbeddingModel, IndexPoint, StoredChunk, StoreUnavailable
from service.adapters.vector import edge_shard as shards
from service.adapters.vector import filters as vf
from service.adapters.vector.qdrant_edge import STAGING

_PAGE = 256


class EdgeRebuild:
    """An IndexRebuild of the Edge shard in `path`. Build with `EdgeRebuild.start`."""

    def __init__(
        self, path: Path, lock: IO[str], old: qe.EdgeShard | None, model: EmbeddingModel
    ) -> None:
        self.path, self._lock, self._old, self.model = path, lock, old, model
        self.stored_model = shards.read_model(path)
        self._staged = path / STAGING
        shutil.rmtree(self._staged, ignore_errors=True)
        self._new: qe.EdgeShard | None = qe.EdgeShard.create(
            str(self._staged), shards.config(model.dimension)
        )

    @classmethod
    def start(cls, path: Path, model: EmbeddingModel) -> EdgeRebuild:
        """Locks the folder (IndexLocked if held) and opens its shard as it is. Blocking."""
        path.mkdir(parents=True, exist_ok=True)
        lock = shards.lock(path)
        try:
            old = qe.EdgeShard.load(str(path)) if (path / shards.CONFIG_FILE).exists() else None
            return cls(path, lock, old, model)
        except Exception as exc:
            lock.close()
            raise StoreUnavailable(f"cannot open vector index at {path}: {exc}") from exc

    async def chunks(self) -> AsyncIterator[Sequence[StoredChunk]]:
        old = self._old
        offset: Any = None
        while old is not None:
            request = qe.ScrollRequest(offset=offset, limit=_PAGE, with_payload=True)
            page, offset = await asyncio.to_thread(old.scroll, request)
            found = [vf.to_hit(r.payload, 0.0, str(r.id)) for r in page]
            yield [StoredChunk(hit.id, hit.payload) for hit in found]
            if offset is None:
                return

    async def add(self, points: Sequence[IndexPoint]) -> None:
        new = self._new
        assert new is not None, "the rebuild is closed"
        stored = [shards.stored_point(p, self.model.dimension) for p in points]
        if stored:
            await asyncio.to_thread(new.update, qe.UpdateOperation.upsert_points(stored))

    async def commit(self) -> None:
        new = self._new
        assert new is not None, "the rebuild is closed"
        await asyncio.to_thread(shards.ensure_payload_indexes, new)
        await asyncio.to_thread(new.optimize)
        self._new = None
        await asyncio.to_thread(new.close)
        shards.write_model(self._staged, self.model)
        await self._close_old()
        shards.swap_in(self.path, self._staged)

    async def _close_old(self) -> None:
        old, self._old = self._old, None
        if old is not None:
            await asyncio.to_thread(old.close)

    async def close(self) -> None:
        new, self._new = self._new, None
        try:
            if new is not None:
                await asyncio.to_thread(new.close)
                shutil.rmtree(self._staged, ignore_errors=True)
            await self._close_old()
        finally:
            self._lock.close()
