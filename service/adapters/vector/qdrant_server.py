"""VectorIndex on a Qdrant server through qdrant-client's AsyncQdrantClient.

Production passes a URL. Tests use qdrant-client's local mode (`location=":memory:"` or `path=`),
which is pure Python: it ignores payload indexes, searches exhaustively and blocks the loop.

A collection created before hybrid search has no sparse vector and Qdrant cannot add one to it:
it keeps serving dense-only (`hybrid` is False, sparse searches return nothing) and a warning
says so; `warden reindex` rebuilds it with the sparse vector (service/adapters/vector/
server_reindex.py: a new collection, then the name becomes an alias of it).

The embedding model is recorded in the collection's metadata (model_stamp.py).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Awaitable, Sequence
from typing import Any, Self

from qdrant_client import AsyncQdrantClient, models

from pipelines.ports import (
    EmbeddingModel,
    EmbeddingModelMismatch,
    IndexPoint,
    SparseVector,
    StoreUnavailable,
)
from service.adapters.vector import filters as vf
from service.adapters.vector.filters import IndexLocked
from service.adapters.vector.model_stamp import needs_stamp, read_stamp, stamp
from service.adapters.vector.qdrant_base import QdrantIndexBase, Search

_SCROLL_PAGE = 1024
_UPSERT_BATCH = 256
_log = logging.getLogger(__name__)


def _filter(conditions: list[vf.Condition]) -> models.Filter:
    must: list[models.Condition] = []
    must_not: list[models.Condition] = []
    for c in conditions:
        if c.equals is not None:
            match = models.MatchValue(value=c.equals)
            condition = models.FieldCondition(key=c.key, match=match)
        else:
            condition = models.FieldCondition(key=c.key, range=models.Range(gt=c.gt, lte=c.lte))
        (must_not if c.excluded else must).append(condition)
    return models.Filter(must=must, must_not=must_not or None)


async def physical_name(client: AsyncQdrantClient, name: str) -> str:
    """The collection behind `name` when it is an alias (`warden reindex` makes it one)."""
    aliases = await client.get_aliases()
    return next((a.collection_name for a in aliases.aliases if a.alias_name == name), name)


async def create_collection(
    client: AsyncQdrantClient, name: str, dimension: int, model: EmbeddingModel | None
) -> None:
    vectors = models.VectorParams(size=dimension, distance=models.Distance.COSINE)
    sparse = models.SparseVectorParams(modifier=models.Modifier.IDF)
    await client.create_collection(
        name,
        vectors_config=vectors,
        sparse_vectors_config={vf.SPARSE: sparse},
        metadata=stamp(model) if model is not None else None,
    )


async def ensure_payload_indexes(client: AsyncQdrantClient, name: str) -> None:
    """Creates the missing payload indexes; the upload owner's field is the tenant index
    (`is_tenant`: the server keeps each user's points together), also on an older collection
    that indexed it as a plain keyword."""
    schema = (await client.get_collection(name)).payload_schema
    for field, kind in vf.PAYLOAD_INDEXES.items():
        found = schema.get(field)
        tenant = field == vf.TENANT_FIELD
        if found is None or (tenant and not getattr(found.params, "is_tenant", False)):
            await client.create_payload_index(
                name, field, field_schema=_index_schema(kind, tenant=tenant), wait=True
            )


def _index_schema(kind: vf.IndexKind, *, tenant: bool = False) -> models.PayloadSchemaParams:
    if kind == "integer":
        return models.IntegerIndexParams(
            type=models.IntegerIndexType.INTEGER, lookup=False, range=True
        )
    return models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=tenant)


def _sparse(vector: SparseVector) -> models.SparseVector:
    return models.SparseVector(indices=list(vector.indices), values=list(vector.values))


class QdrantServerIndex(QdrantIndexBase):
    """Build with `await QdrantServerIndex.connect(url=..., dimension=...)`."""

    def __init__(self, client: AsyncQdrantClient, collection: str, dimension: int) -> None:
        self._client = client
        self.collection = collection
        self.dimension = dimension
        self.hybrid = True
        self._closed = False

    @classmethod
    async def connect(
        cls,
        *,
        dimension: int,
        url: str | None = None,
        api_key: str | None = None,
        location: str | None = None,
        path: str | None = None,
        collection: str = "warden",
        timeout_s: int = 10,
        model: EmbeddingModel | None = None,
    ) -> Self:
        """Connects and creates the collection and its payload indexes if missing. With a
        `model`, refuses a collection of another model's vectors (EmbeddingModelMismatch) and
        records it in a collection that has none recorded. `collection` may be an alias."""
        try:
            client = AsyncQdrantClient(
                url=url, api_key=api_key, location=location, path=path, timeout=timeout_s
            )
        except RuntimeError as exc:  # local mode: another client holds `path`
            raise IndexLocked(str(exc)) from exc
        index = cls(client, collection, dimension)
        with warnings.catch_warnings():
            if url is None:  # local mode warns that it ignores payload indexes: we know
                warnings.simplefilter("ignore", UserWarning)
            try:
                await index._guard(index._ensure_collection(model))
            except BaseException:
                await client.close()
                raise
        return index

    async def _ensure_collection(self, model: EmbeddingModel | None) -> None:
        name = await physical_name(self._client, self.collection)
        if not await self._client.collection_exists(name):
            await create_collection(self._client, name, self.dimension, model)
        info = await self._client.get_collection(name)
        if model is not None:
            found = info.config.params.vectors
            size = found.size if isinstance(found, models.VectorParams) else None
            stored = read_stamp(info.config.metadata)
            where = f"collection {self.collection}"
            if needs_stamp(stored, model, dimension_found=size, where=where):
                await self._client.update_collection(name, metadata=stamp(model))
        self.hybrid = vf.SPARSE in (info.config.params.sparse_vectors or {})
        if not self.hybrid:
            _log.warning(
                "collection %s has no sparse vector (created by an older Warden): dense-only"
                " search; run `warden reindex` to rebuild it with the sparse vector",
                self.collection,
            )
        await ensure_payload_indexes(self._client, name)

    @staticmethod
    async def _guard[T](call: Awaitable[T]) -> T:
        try:
            return await call
        except EmbeddingModelMismatch:
            raise
        except Exception as exc:
            raise StoreUnavailable(f"vector index failed: {exc}") from exc

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        stored = [
            models.PointStruct(
                id=vf.point_uuid(p.id),
                vector=self._vector(p),
                payload=vf.stored_payload(p),
            )
            for p in points
        ]
        for start in range(0, len(stored), _UPSERT_BATCH):
            batch = stored[start : start + _UPSERT_BATCH]
            await self._guard(self._client.upsert(self.collection, points=batch, wait=True))

    def _vector(self, point: IndexPoint) -> models.VectorStruct:
        dense = vf.check_vector(point.vector, self.dimension)
        if point.sparse and self.hybrid:
            return {"": dense, vf.SPARSE: _sparse(point.sparse)}
        return dense

    async def _search_batch(
        self, query: list[float], sparse: SparseVector, searches: list[Search]
    ) -> list[list[models.ScoredPoint]]:
        terms = _sparse(sparse)
        requests = [
            models.QueryRequest(
                query=terms if on_sparse else query,
                using=vf.SPARSE if on_sparse else None,
                filter=_filter(conds),
                limit=limit,
                with_payload=True,
            )
            for conds, limit, on_sparse in searches
        ]
        responses = await self._guard(
            self._client.query_batch_points(self.collection, requests=requests)
        )
        return [response.points for response in responses]

    async def _core_page(self, offset: Any) -> tuple[list[models.Record], Any]:
        return await self._guard(
            self._client.scroll(
                self.collection,
                scroll_filter=_filter(vf.core_points()),
                limit=_SCROLL_PAGE,
                offset=offset,
                with_payload=vf.CORE_DOC_FIELDS,
            )
        )

    async def _delete(self, conditions: list[vf.Condition]) -> None:
        selector = models.FilterSelector(filter=_filter(conditions))
        await self._guard(self._client.delete(self.collection, points_selector=selector, wait=True))

    async def _set_payload(self, conditions: list[vf.Condition], payload: dict[str, Any]) -> None:
        selector = models.FilterSelector(filter=_filter(conditions))
        await self._guard(
            self._client.set_payload(self.collection, payload, points=selector, wait=True)
        )

    async def count(self) -> int:
        result = await self._guard(self._client.count(self.collection, exact=True))
        return result.count

    async def ping(self) -> None:
        if self._closed:
            raise StoreUnavailable("vector index is closed")
        await self._guard(self._client.get_collection(self.collection))

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._client.close()
