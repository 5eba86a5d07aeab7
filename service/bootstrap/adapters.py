"""The production adapters, one opener per port: embedded defaults, or servers when their URLs
are set. Each vendor module is imported inside its opener, so a test that passes fakes never
loads ONNX, Presidio or Qdrant."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from pipelines.ports import (
    ChatModel,
    Embedder,
    EmbeddingModel,
    IdempotencyStore,
    IndexRebuild,
    PiiDetector,
    Store,
    Tracer,
    VectorIndex,
)
from service.container import Probe
from service.settings import Settings

Closer = Callable[[], Awaitable[Any]]


async def open_embedder() -> Embedder:
    from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder

    embedder = OnnxMiniLmEmbedder()
    await asyncio.to_thread(embedder.warm)  # the first request should not pay the load
    return embedder


def configured_model() -> EmbeddingModel:
    """The embedding model `open_embedder` loads, known without loading it."""
    from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder

    return EmbeddingModel(OnnxMiniLmEmbedder.model_name, OnnxMiniLmEmbedder.dimension)


async def check_index(settings: Settings) -> None:
    """Opens and closes the configured index: raises what opening it would (a model mismatch,
    a held folder, an unreachable server) before any worker starts."""
    model = configured_model()
    index = await open_index(settings, model.dimension, model)
    await index.close()


async def open_index(
    settings: Settings,
    dimension: int,
    model: EmbeddingModel | None = None,
    *,
    serving: bool = False,
) -> VectorIndex:
    """The index; with `model`, one built with another model is refused at once
    (EmbeddingModelMismatch names both and `warden reindex`). `serving`: Qdrant Edge builds its
    HNSW index aside after `index_build_after` points written."""
    if settings.qdrant_url:
        from service.adapters.vector.qdrant_server import QdrantServerIndex

        return await QdrantServerIndex.connect(
            url=settings.qdrant_url, api_key=_qdrant_key(settings), dimension=dimension, model=model
        )
    from service.adapters.vector.qdrant_edge import QdrantEdgeIndex

    path = settings.data_dir / "qdrant"
    build_after = settings.index_build_after if serving and settings.index_build_after else None
    return await asyncio.to_thread(
        functools.partial(
            QdrantEdgeIndex.open, path, dimension, model=model, optimize_after=build_after
        )
    )


def _qdrant_key(settings: Settings) -> str | None:
    return settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None


async def open_rebuild(settings: Settings, model: EmbeddingModel) -> IndexRebuild:
    """What `warden reindex` fills: a new index for `model` beside the configured one."""
    if settings.qdrant_url:
        from qdrant_client import AsyncQdrantClient

        from service.adapters.vector.server_reindex import ServerRebuild

        client = AsyncQdrantClient(url=settings.qdrant_url, api_key=_qdrant_key(settings))
        try:
            return await ServerRebuild.start(client, "warden", model)
        except BaseException:
            await client.close()
            raise
    from service.adapters.vector.edge_reindex import EdgeRebuild

    return await asyncio.to_thread(EdgeRebuild.start, settings.data_dir / "qdrant", model)


async def open_store(settings: Settings) -> Store:
    from service.adapters.store.mongo_open import open_embedded_store, open_server_store

    if settings.mongodb_uri:
        uri = settings.mongodb_uri.get_secret_value()
        return await open_server_store(uri, database=settings.mongodb_database)
    return await open_embedded_store(settings.data_dir)


def idempotency_for(store: Store) -> IdempotencyStore:
    """Idempotency records beside the store's own collections; in memory for any other store."""
    from service.adapters.store.memory_idempotency import MemoryIdempotency
    from service.adapters.store.mongo_idempotency import MongoIdempotency
    from service.adapters.store.mongo_store import MongoStore

    if isinstance(store, MongoStore):
        return MongoIdempotency(store.database)
    return MemoryIdempotency()


async def open_detector() -> PiiDetector:
    from service.adapters.pii.presidio_detector import PresidioPiiDetector

    return await asyncio.to_thread(PresidioPiiDetector)


def chat_model(settings: Settings, closers: list[tuple[str, Closer]]) -> ChatModel | None:
    if not settings.llm_base_url:
        return None  # extractive answers and template greetings
    from service.adapters.model.guarded_chat import GuardedChatModel
    from service.adapters.model.openai_chat import OpenAIChatModel

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    inner = OpenAIChatModel(
        settings.llm_base_url,
        key,
        settings.llm_model,
        timeout_s=settings.llm_timeout_s,
        frequency_penalty=settings.llm_frequency_penalty,
        presence_penalty=settings.llm_presence_penalty,
    )
    closers.append(("chat model", inner.close))
    return GuardedChatModel(inner)


def tracer(settings: Settings, closers: list[tuple[str, Closer]]) -> Tracer:
    """JSON logs always; Langfuse too when its keys are set (closed with a bounded flush)."""
    from service.adapters.tracing.log_tracer import JsonLogTracer

    timeout_s = settings.shutdown_flush_timeout_s
    if not (settings.langfuse_public_key and settings.langfuse_secret_key):
        return JsonLogTracer()
    from service.adapters.tracing.composite_tracer import CompositeTracer
    from service.adapters.tracing.langfuse_tracer import LangfuseTracer

    langfuse = LangfuseTracer(
        public_key=settings.langfuse_public_key.get_secret_value(),
        secret_key=settings.langfuse_secret_key.get_secret_value(),
        base_url=settings.langfuse_base_url,
        timeout_s=settings.langfuse_timeout_s,
    )
    closers.append(("langfuse", lambda: langfuse.close(timeout_s)))
    return CompositeTracer(JsonLogTracer(), langfuse)


async def _embedder_check(embedder: Embedder) -> None:
    ping = getattr(embedder, "ping", None)
    if ping is not None:
        await ping()
    else:
        await embedder.embed_query("ready")


def probes(
    embedder: Embedder, index: VectorIndex, store: Store, chat_model: ChatModel | None
) -> dict[str, Probe]:
    """What /readyz checks (unmetered adapters: a probe is not a request's cost)."""
    probes = {
        "vector_index": Probe(index.ping),
        "store": Probe(store.ping),
        "embedder": Probe(lambda: _embedder_check(embedder)),
    }
    if chat_model is not None:  # optional: without it answers degrade to sources
        probes["chat_model"] = Probe(chat_model.ping, required=False)
    return probes
