"""`warden reindex` on a Qdrant server: a new collection `<name>--<id>` for the new model is
filled beside the current one, then `<name>` becomes an alias of it and the old collection is
dropped. Clients keep using `<name>` throughout.

Until the switch the current collection is untouched. A run that is interrupted leaves a
half-filled `<name>--<id>`, removed by the next run. One window is not atomic: the first
reindex of a collection really named `<name>` must drop it before the alias can take its name;
a run interrupted there is finished by the next (the alias is pointed at the only rebuilt
collection)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

from qdrant_client import AsyncQdrantClient, models

from pipelines.ports import EmbeddingModel, IndexPoint, StoredChunk
from service.adapters.vector import filters as vf
from service.adapters.vector.model_stamp import read_stamp
from service.adapters.vector.qdrant_server import (
    QdrantServerIndex,
    create_collection,
    ensure_payload_indexes,
    physical_name,
)

_PAGE = 256


class ServerRebuild:
    """An IndexRebuild of the collection (or alias) `name`. Build with `ServerRebuild.start`;
    it owns the client (closed by `close`)."""

    def __init__(self, client: AsyncQdrantClient, name: str, model: EmbeddingModel) -> None:
        self._client, self.name, self.model = client, name, model
        self.stored_model: EmbeddingModel | None = None
        self._old: str | None = None
        self._new = f"{name}--{uuid.uuid4().hex[:8]}"
        self._index = QdrantServerIndex(client, self._new, model.dimension)

    @classmethod
    async def start(
        cls, client: AsyncQdrantClient, name: str, model: EmbeddingModel
    ) -> ServerRebuild:
        rebuild = cls(client, name, model)
        await rebuild._prepare()
        return rebuild

    async def _collections(self) -> set[str]:
        return {c.name for c in (await self._client.get_collections()).collections}

    async def _prepare(self) -> None:
        existing = await self._collections()
        old = await physical_name(self._client, self.name)
        rebuilt = sorted(c for c in existing if c.startswith(f"{self.name}--") and c != old)
        if old not in existing and len(rebuilt) == 1:  # interrupted between drop and alias
            await self._point_alias_at(rebuilt[0], drop_alias=False)
            old, rebuilt = rebuilt[0], []
        for leftover in rebuilt:  # half-filled by an interrupted run
            await self._client.delete_collection(leftover)
        if old in existing or old != self.name:
            self._old = old
            info = await self._client.get_collection(old)
            self.stored_model = read_stamp(info.config.metadata)
        await create_collection(self._client, self._new, self.model.dimension, self.model)

    async def chunks(self) -> AsyncIterator[Sequence[StoredChunk]]:
        offset: Any = None
        while self._old is not None:
            page, offset = await self._client.scroll(
                self._old, limit=_PAGE, offset=offset, with_payload=True, with_vectors=False
            )
            found = [vf.to_hit(r.payload, 0.0, str(r.id)) for r in page]
            yield [StoredChunk(hit.id, hit.payload) for hit in found]
            if offset is None:
                return

    async def add(self, points: Sequence[IndexPoint]) -> None:
        await self._index.upsert(points)

    async def commit(self) -> None:
        await ensure_payload_indexes(self._client, self._new)
        old = self._old
        if old == self.name:  # a real collection holds the name: it must go first
            await self._client.delete_collection(old)
            old = None
        await self._point_alias_at(self._new, drop_alias=old is not None)
        if old is not None:
            await self._client.delete_collection(old)
        self._new = ""

    async def _point_alias_at(self, collection: str, *, drop_alias: bool) -> None:
        operations: list[models.AliasOperations] = []
        if drop_alias:
            operations.append(
                models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=self.name))
            )
        create = models.CreateAlias(collection_name=collection, alias_name=self.name)
        operations.append(models.CreateAliasOperation(create_alias=create))
        await self._client.update_collection_aliases(change_aliases_operations=operations)

    async def close(self) -> None:
        """Drops the new collection unless committed, then closes the client."""
        try:
            if self._new:
                await self._client.delete_collection(self._new)
                self._new = ""
        finally:
            await self._client.close()
