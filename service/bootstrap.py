"""The composition root: the ONE place that chooses adapters.

Every keyword argument of `build_container` defaults to the production choice (embedded
defaults, or servers when their URLs are set); tests pass fakes instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from pipelines.deps import PipelineConfig, PipelineDeps
from pipelines.metering import metered
from pipelines.ports import ChatModel, Embedder, PiiDetector, Store, Tracer, VectorIndex
from pipelines.runner import ChatPipeline
from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules
from pipelines.state import Classification
from prompts import PromptBook
from service.adapters.embedding.caching_embedder import CachingEmbedder
from service.adapters.store.history_outbox import OutboxChatStore
from service.auth.passwords import Passwords
from service.auth.secret_file import load_or_create_secret
from service.auth.throttle import AuthThrottle
from service.auth.tokens import ExternalIdp, TokenService
from service.chat import ChatService
from service.container import Closer, Container, Probe
from service.documents.limits import DocumentLimits
from service.documents.service import DocumentService
from service.knowledge import KnowledgeService
from service.metrics import ChatMetrics
from service.pipeline_config import load_pipeline_config
from service.rate_limit import SlidingWindowLimiter
from service.settings import Settings

log = logging.getLogger("warden.bootstrap")
Classifier = Callable[[str, SafetyRules], Classification]


# ---------------------------------------------------------------- production adapters
# Imported inside each opener: a test that passes fakes never loads ONNX, Presidio or Qdrant.


async def open_embedder() -> Embedder:
    from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder

    embedder = OnnxMiniLmEmbedder()
    await asyncio.to_thread(embedder.warm)  # the first request should not pay the load
    return embedder


async def open_index(settings: Settings, dimension: int) -> VectorIndex:
    if settings.qdrant_url:
        from service.adapters.vector.qdrant_server import QdrantServerIndex

        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return await QdrantServerIndex.connect(
            url=settings.qdrant_url, api_key=key, dimension=dimension
        )
    from service.adapters.vector.qdrant_edge import QdrantEdgeIndex

    path = settings.data_dir / "qdrant"
    return await asyncio.to_thread(QdrantEdgeIndex.open, path, dimension)


async def _open_store(settings: Settings) -> Store:
    from service.adapters.store.mongo_open import open_embedded_store, open_server_store

    if settings.mongodb_uri:
        uri = settings.mongodb_uri.get_secret_value()
        return await open_server_store(uri, database=settings.mongodb_database)
    return await open_embedded_store(settings.data_dir)


async def open_detector() -> PiiDetector:
    from service.adapters.pii.presidio_detector import PresidioPiiDetector

    return await asyncio.to_thread(PresidioPiiDetector)


def _chat_model(settings: Settings, closers: list[tuple[str, Closer]]) -> ChatModel | None:
    if not settings.llm_base_url:
        return None  # extractive answers and template greetings
    from service.adapters.model.guarded_chat import GuardedChatModel
    from service.adapters.model.openai_chat import OpenAIChatModel

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    inner = OpenAIChatModel(
        settings.llm_base_url, key, settings.llm_model, timeout_s=settings.llm_timeout_s
    )
    closers.append(("chat model", inner.close))
    return GuardedChatModel(inner)


def _tracer(settings: Settings, closers: list[tuple[str, Closer]]) -> Tracer:
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


async def replay_outbox(outbox: OutboxChatStore) -> int:
    """Re-sends history turns queued while the store was down; how many (never raises)."""
    try:
        stored = await outbox.replay()
    except Exception as exc:  # noqa: BLE001 - retried later
        log.warning("history outbox replay failed: %s", type(exc).__name__)
        return 0
    if stored:
        log.info("history outbox: %d queued turns stored", stored)
    return stored


async def pipeline_config(settings: Settings) -> PipelineConfig:
    """The shipped rules, keyword map and allowlist, with the toxicity scorer when enabled."""
    config = load_pipeline_config(settings)
    if not settings.toxicity_classifier:
        return config
    scorer = await asyncio.to_thread(toxicity_scorer)
    return replace(config, safety=replace(config.safety, toxicity_scorer=scorer))


def toxicity_scorer() -> Callable[[str], float]:
    """alt-profanity-check's shipped model: probability that a text is offensive (~4 ms)."""
    from profanity_check import predict_prob

    def score(text: str) -> float:
        return float(predict_prob([text])[0])

    score("warm up")
    return score


async def _embedder_check(embedder: Embedder) -> None:
    ping = getattr(embedder, "ping", None)
    if ping is not None:
        await ping()
    else:
        await embedder.embed_query("ready")


def _probes(
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


def token_service(settings: Settings) -> TokenService:
    secret = settings.jwt_secret
    key = secret.get_secret_value() if secret else load_or_create_secret(settings.data_dir)
    pem = settings.external_public_key()
    external = None
    if pem:  # Settings refuses a key without both issuer and audience
        assert settings.jwt_external_issuer and settings.jwt_external_audience
        external = ExternalIdp(pem, settings.jwt_external_issuer, settings.jwt_external_audience)
    return TokenService(
        key,
        ttl=timedelta(minutes=settings.jwt_ttl_minutes),
        issuer=settings.jwt_issuer,
        external=external,
        local=settings.local_accounts,
    )


def auth_throttle(settings: Settings) -> AuthThrottle:
    return AuthThrottle(
        requests_per_ip=settings.auth_requests_per_ip_per_minute,
        failures_per_ip=settings.login_attempts_per_minute,
        failures_per_account=settings.login_failures_per_account_per_minute,
    )


async def open_knowledge(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    index: VectorIndex | None = None,
    detector: PiiDetector | None = None,
) -> KnowledgeService:
    """What `warden ingest` needs: the embedder, the index (closed by the service) and the
    PII detector for the allowlist."""
    embedder = embedder or await open_embedder()
    index = index or await open_index(settings, embedder.dimension)
    try:
        detector = detector or await open_detector()
    except BaseException:
        await index.close()
        raise
    return KnowledgeService(embedder, index, detector, settings.data_dir)


async def build_container(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    index: VectorIndex | None = None,
    detector: PiiDetector | None = None,
    chat_model: ChatModel | None = None,
    store: Store | None = None,
    tracer: Tracer | None = None,
    passwords: Passwords | None = None,
    config: PipelineConfig | None = None,
    classifier: Classifier | None = None,
) -> Container:
    """Opens what is not given; if anything fails, what was opened is closed again.

    Everything given or opened is closed by `Container.close()`.
    """
    closers: list[tuple[str, Closer]] = []
    try:
        embedder = embedder or await open_embedder()
        if index is None:
            index = await open_index(settings, embedder.dimension)
        closers.append(("vector index", index.close))
        store = store or await _open_store(settings)
        closers.append(("store", store.close))
        detector = detector or await open_detector()
        if chat_model is None:
            chat_model = _chat_model(settings, closers)
        if tracer is None:
            tracer = _tracer(settings, closers)
        else:
            given, timeout_s = tracer, settings.shutdown_flush_timeout_s
            closers.append(("tracer", lambda: given.flush(timeout_s)))
        outbox = OutboxChatStore(store, settings.data_dir / "outbox")  # closes nothing itself
        await replay_outbox(outbox)
        metered_store = metered(outbox, "store")
        deps = PipelineDeps(
            embedder=metered(CachingEmbedder(embedder), "embed"),  # a cache hit still counts
            index=metered(index, "vector"),
            detector=detector,
            chat_model=metered(chat_model, "llm") if chat_model is not None else None,
            store=metered_store,
            tracer=tracer,
            prompts=PromptBook.load(),
            config=config or await pipeline_config(settings),
            classifier=classifier or classify_message,
        )
        chat = ChatService(
            ChatPipeline(deps),
            metered_store,
            ChatMetrics(),  # its own registry, not prometheus_client's global one
            max_message_chars=settings.max_message_chars,
            clock=lambda: deps.clock(),
        )
        documents = DocumentService(
            index=deps.index,
            embedder=deps.embedder,
            registry=metered_store,
            clock=lambda: deps.clock(),
            limits=DocumentLimits.from_settings(settings),
        )
        return Container(
            settings=settings,
            deps=deps,
            chat=chat,
            documents=documents,
            store=metered_store,
            replay_outbox=lambda: replay_outbox(outbox),
            tokens=token_service(settings),
            passwords=passwords or Passwords(),
            limiter=SlidingWindowLimiter(settings.rate_limit_per_minute),
            auth_throttle=auth_throttle(settings),
            probes=_probes(embedder, index, store, chat_model),
            closers=closers,
        )
    except BaseException:
        for _, closer in reversed(closers):
            with contextlib.suppress(Exception):
                await closer()
        raise
