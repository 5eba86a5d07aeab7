"""The composition root: the ONE place that chooses adapters.

Every keyword argument of `build_container` defaults to the production choice (embedded
defaults, or servers when their URLs are set); tests pass fakes instead.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

from pipelines.deps import PipelineConfig, PipelineDeps
from pipelines.metering import metered
from pipelines.ports import (
    ChatModel,
    Embedder,
    IdempotencyStore,
    PiiDetector,
    Store,
    Tracer,
    VectorIndex,
    embedding_model,
)
from pipelines.runner import ChatPipeline
from pipelines.safety.classify import classify_message
from pipelines.safety.documents import screen_chunk
from pipelines.safety.rules import SafetyRules
from pipelines.state import Classification
from prompts import PromptBook
from service.adapters.embedding.caching_embedder import CachingEmbedder
from service.adapters.pii.recent_detections import RecentDetections
from service.adapters.store.history_outbox import OutboxChatStore
from service.auth.accounts import AccountService
from service.auth.passwords import Passwords
from service.bootstrap import privacy
from service.bootstrap.adapters import (
    chat_model as configured_chat_model,
)
from service.bootstrap.adapters import (
    check_index,
    idempotency_for,
    open_detector,
    open_embedder,
    open_index,
    open_rebuild,
    open_store,
    probes,
)
from service.bootstrap.adapters import (
    tracer as configured_tracer,
)
from service.bootstrap.config import auth_throttle, pipeline_config, token_service, toxicity_scorer
from service.chat import ChatService
from service.container import Closer, Container
from service.documents.limits import DocumentLimits
from service.documents.service import DocumentService
from service.idempotent_chat import IdempotentChats
from service.knowledge import KnowledgeService
from service.metrics import ChatMetrics
from service.outbox_slots import claim_outbox, unclaimed_outboxes
from service.privacy.files import owner_only
from service.rate_limit import SlidingWindowLimiter
from service.settings import Settings

__all__ = [
    "build_container",
    "check_index",
    "open_detector",
    "open_embedder",
    "open_index",
    "open_knowledge",
    "open_rebuild",
    "pipeline_config",
    "replay_abandoned_outboxes",
    "replay_outbox",
    "token_service",
    "toxicity_scorer",
]
log = logging.getLogger("warden.bootstrap")
Classifier = Callable[[str, SafetyRules], Classification]


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


async def _released(release: Callable[[], None]) -> None:
    release()


async def replay_abandoned_outboxes(store: Store, data_dir: Path) -> int:
    """Replays the outboxes of serving processes that no longer run (see outbox_slots)."""
    stored = 0
    for folder, release in unclaimed_outboxes(data_dir):
        try:
            stored += await replay_outbox(OutboxChatStore(store, folder))
        finally:
            release()
    return stored


async def open_knowledge(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    index: VectorIndex | None = None,
    detector: PiiDetector | None = None,
) -> KnowledgeService:
    """What `warden ingest` needs: the embedder, the index (closed by the service) and the
    PII detector for the allowlist."""
    owner_only(settings.data_dir)
    embedder = embedder or await open_embedder()
    index = index or await open_index(settings, embedder.dimension, embedding_model(embedder))
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
    idempotency: IdempotencyStore | None = None,
) -> Container:
    """Opens what is not given; if anything fails, what was opened is closed again.

    Everything given or opened is closed by `Container.close()`.
    """
    closers: list[tuple[str, Closer]] = []
    owner_only(settings.data_dir)  # before any store writes a file there
    try:
        embedder = embedder or await open_embedder()
        if index is None:
            model = embedding_model(embedder)
            index = await open_index(settings, embedder.dimension, model, serving=True)
        closers.append(("vector index", index.close))
        store = store or await open_store(settings)
        closers.append(("store", store.close))
        detector = RecentDetections(detector or await open_detector())  # shared: see its doc
        if chat_model is None:
            chat_model = configured_chat_model(settings, closers)
        if tracer is None:
            tracer = configured_tracer(settings, closers)
        else:
            given, timeout_s = tracer, settings.shutdown_flush_timeout_s
            closers.append(("tracer", lambda: given.flush(timeout_s)))
        outbox_dir, release_outbox = claim_outbox(settings.data_dir)  # one per process
        closers.insert(0, ("outbox claim", lambda: _released(release_outbox)))
        outbox = OutboxChatStore(store, outbox_dir)  # closes nothing itself
        await replay_outbox(outbox)
        await replay_abandoned_outboxes(store, settings.data_dir)
        metered_store = metered(privacy.sealed_history(settings, outbox, detector), "store")
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
            screen=lambda text: screen_chunk(text, deps.config.safety),
        )
        # before anyone is served: uploads a crash left pending (an embedded store is ours alone)
        await documents.remove_crashed(exclusive=settings.mongodb_uri is None)
        access = await privacy.access_rules(store)
        tokens = token_service(settings, access)
        accounts = AccountService(
            metered_store,
            passwords or Passwords(),
            tokens,
            auth_throttle(settings),
            local_accounts=settings.local_accounts,
            allow_signup=settings.allow_signup,
            access=access,
        )
        me = privacy.me_service(
            store=store, index=index, chat=chat, documents=documents, access=access, outbox=outbox
        )
        return Container(
            settings=settings,
            deps=deps,
            chat=chat,
            idempotent=IdempotentChats(
                chat, idempotency or idempotency_for(store), clock=lambda: deps.clock()
            ),
            documents=documents,
            accounts=accounts,
            store=metered_store,
            replay_outbox=lambda: replay_outbox(outbox),
            tokens=tokens,
            limiter=SlidingWindowLimiter(settings.rate_limit_per_minute),
            probes=probes(embedder, index, store, chat_model),
            closers=closers,
            access=access,
            me=me,
        )
    except BaseException:
        for _, closer in reversed(closers):
            with contextlib.suppress(Exception):
                await closer()
        raise
