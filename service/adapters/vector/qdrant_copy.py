"""`warden migrate`'s vector ends: a snapshot of the Qdrant Edge folder as the source, a
Qdrant collection (qdrant-client) as the target.

The source folder is copied into a scratch folder first and only the copy is opened: Qdrant
Edge writes its WAL and segments when it loads and closes a shard, so opening the original
would change it. Points keep their stored id (the uuid5 of the port id), both vectors and the
stored payload (reserved keys included), so the target holds what the service itself would
have written, and writing a point twice leaves one point. Expired uploads are not copied."""

from __future__ import annotations

import asyncio
import json
import shutil
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import qdrant_edge as qe
from qdrant_client import models

from service.adapters.vector import filters as vf
from service.adapters.vector.edge_shard import edge_filter
from service.adapters.vector.qdrant_server import QdrantServerIndex
from service.adapters.vector.qdrant_server import _filter as server_filter
from service.migration.ports import Batch

EDGE_LOCK = ".warden.lock"  # the lock file of the Edge folder, never copied


@dataclass(frozen=True)
class CopiedPoint:
    id: str
    dense: list[float]
    sparse: tuple[list[int], list[float]] | None
    payload: dict[str, Any]


def is_live(payload: Mapping[str, Any], now: datetime) -> bool:
    """Core points always; an upload's points until they expire."""
    if payload.get(vf.SCOPE_KEY) != vf.TEMPORARY:
        return True
    expires = payload.get("expires_at")
    return isinstance(expires, int | float) and expires > vf.epoch_seconds(now)


def edge_dimension(folder: Path) -> int | None:
    """The dense vector size of an Edge folder (None: no index there yet)."""
    config = folder / "edge_config.json"
    if not config.exists():
        return None
    return int(json.loads(config.read_text())["vectors"][""]["size"])


def _copied(record: Any) -> CopiedPoint:
    vectors = record.vector if isinstance(record.vector, dict) else {"": record.vector}
    sparse = vectors.get(vf.SPARSE)
    pair = (list(sparse.indices), list(sparse.values)) if sparse is not None else None
    return CopiedPoint(str(record.id), list(vectors[""]), pair, dict(record.payload or {}))


def _offset(resume: Any) -> Any:
    return resume if resume is None or isinstance(resume, int) else uuid.UUID(str(resume))


class EdgeSnapshot:
    """The `vectors` stream over a copy of an Edge folder. Build with `take`; `close()`."""

    name = "vectors"

    def __init__(self, shard: qe.EdgeShard | None) -> None:
        self._shard = shard

    @classmethod
    def take(cls, folder: Path, scratch: Path) -> EdgeSnapshot:
        """Copies `folder` (its lock file aside) into `scratch` and opens the copy. Blocking."""
        if edge_dimension(folder) is None:
            return cls(None)
        shutil.copytree(folder, scratch, ignore=shutil.ignore_patterns(EDGE_LOCK))
        return cls(qe.EdgeShard.load(str(scratch)))

    async def count(self, now: datetime) -> int:
        shard = self._shard
        if shard is None:
            return 0
        expired = qe.CountRequest(exact=True, filter=edge_filter(vf.expired(now)))
        every = await asyncio.to_thread(shard.count, qe.CountRequest(exact=True))
        return every - await asyncio.to_thread(shard.count, expired)

    async def batches(self, resume: Any, size: int, now: datetime) -> AsyncIterator[Batch]:
        shard, offset = self._shard, _offset(resume)
        while shard is not None:
            request = qe.ScrollRequest(
                offset=offset, limit=size, with_payload=True, with_vector=True
            )
            page, offset = await asyncio.to_thread(shard.scroll, request)
            live = [p for p in map(_copied, page) if is_live(p.payload, now)]
            # resume: the next page's first id (None: this page was the last)
            yield Batch(live, None if offset is None else str(offset))
            if offset is None:
                return

    async def close(self) -> None:
        shard, self._shard = self._shard, None
        if shard is not None:
            await asyncio.to_thread(shard.close)


class QdrantCopyTarget(QdrantServerIndex):
    """The target collection, created by `connect` exactly as the service creates it."""

    async def write(self, items: Sequence[CopiedPoint]) -> None:
        points = [
            models.PointStruct(id=p.id, vector=_target_vector(p), payload=p.payload) for p in items
        ]
        if points:
            await self._guard(self._client.upsert(self.collection, points=points, wait=True))

    async def count(self, now: datetime | None = None) -> int:
        """All points, or (with `now`) the live ones, counted like the source."""
        every = await super().count()
        if now is None:
            return every
        expired = server_filter(vf.expired(now))
        found = await self._guard(
            self._client.count(self.collection, count_filter=expired, exact=True)
        )
        return every - found.count


def _target_vector(point: CopiedPoint) -> models.VectorStruct:
    if point.sparse is None:
        return {"": point.dense}
    indices, values = point.sparse
    return {"": point.dense, vf.SPARSE: models.SparseVector(indices=indices, values=values)}
