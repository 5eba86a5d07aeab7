"""Shared test kit for the pipeline tests: fakes wired into PipelineDeps, a small corpus, spies."""

from __future__ import annotations

import inspect
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineConfig, PipelineDeps
from pipelines.metering import metered
from pipelines.nodes.retrieve import retrieve
from pipelines.ports import IndexPoint, Message
from pipelines.state import ChatTurn, Classification, PipelineState, QueryType
from prompts import PromptBook
from tests.fakes.chat_model import FakeChatModel
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex
from tests.unit._safety_rules import shipped_rules

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
USER = "u-7f3a"  # opaque ids, as a token's `sub`
OTHER_USER = "u-91bc"
NAME = "Asha Rao"

# (doc_id, parent_id, [children]); parents are the children joined.
CORE_DOCS: list[tuple[str, str, list[str]]] = [
    (
        "criminal/fir.md",
        "p-fir",
        [
            "A First Information Report is a written document prepared by the police "
            "when they receive information about a cognizable offence.",
            "You can file a First Information Report at any police station. "
            "The police must give you a free copy of the report.",
        ],
    ),
    (
        "criminal/bail.md",
        "p-bail",
        [
            "Bail is the temporary release of an accused person awaiting trial. "
            "A court may set conditions for bail.",
            "For a bailable offence the police must grant bail when the accused offers surety.",
        ],
    ),
    (
        "housing/deposit.md",
        "p-deposit",
        [
            "A landlord must return the security deposit within one month after the tenancy ends. "
            "Deductions are allowed only for unpaid rent and damage.",
        ],
    ),
    (
        "consumer/refund.md",
        "p-refund",
        [
            "A consumer may claim a refund for defective goods within two years of purchase.",
        ],
    ),
]


def _payload(doc_id: str, parent_id: str, parent: str, child: str, **extra: Any) -> dict[str, Any]:
    return {
        "chunk_type": "child",
        "parent_id": parent_id,
        "parent_text": parent,
        "text": child,
        "doc_id": doc_id,
        "source": doc_id.rsplit("/", 1)[-1],
        "page": 1,
        "is_temporary": False,
        "uploaded_by": None,
        "expires_at": None,
        "content_hash": f"hash-{parent_id}",
        **extra,
    }


async def seed_core(index: FakeVectorIndex, embedder: FakeEmbedder) -> None:
    points = []
    for doc_id, parent_id, children in CORE_DOCS:
        parent = " ".join(children)
        for n, child in enumerate(children):
            payload = _payload(doc_id, parent_id, parent, child)
            points.append(IndexPoint(f"{parent_id}-{n}", embedder.embed_sync(child), payload))
    await index.upsert(points)


async def seed_temporary(
    index: FakeVectorIndex,
    embedder: FakeEmbedder,
    *,
    user_id: str,
    doc_id: str,
    text: str,
    expires_at: datetime = NOW + timedelta(hours=24),
) -> None:
    payload = _payload(
        doc_id,
        f"p-{doc_id}",
        text,
        text,
        is_temporary=True,
        uploaded_by=user_id,
        expires_at=expires_at.timestamp(),
        source=f"{doc_id}.txt",
    )
    await index.upsert([IndexPoint(f"t-{doc_id}", embedder.embed_sync(text), payload)])


def kit_config(**changes: Any) -> PipelineConfig:
    """The defaults, with the shipped safety rules and one keyword expansion."""
    base = PipelineConfig(safety=shipped_rules(), keyword_map={"fir": "First Information Report"})
    return replace(base, **changes)


def chat_turn(
    query: str, *, history: Sequence[Message] = (), name: str = NAME, user_id: str = USER
) -> ChatTurn:
    """The request as the edge hands it over: a fresh trace id, started now."""
    return ChatTurn(query, user_id, name, uuid.uuid4().hex, time.perf_counter(), tuple(history))


def verdict(query_type: QueryType, *reasons: str) -> Classification:
    return Classification(query_type, reasons or (query_type,))


def question_state(
    query: str, *, history: Sequence[Message] = (), name: str = NAME
) -> PipelineState:
    """A classified question, as `retrieve` receives it."""
    return {"turn": chat_turn(query, history=history, name=name), "verdict": verdict("question")}


async def retrieved_state(
    kit: Kit, query: str, *, history: Sequence[Message] = (), name: str = NAME
) -> PipelineState:
    """A question after the real `retrieve` node (ports spied), as `generate` receives it."""
    state = question_state(query, history=history, name=name)
    return {**state, **await retrieve(state, runtime(kit.deps(spy=True)))}  # type: ignore[typeddict-item]


@dataclass
class Spy:
    """Wraps a port and records the repr of every argument of every call made through it."""

    inner: Any
    seen: list[str] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name.startswith("_") or not callable(attr):
            return attr
        if inspect.isasyncgenfunction(attr):

            async def stream(*args: Any, **kwargs: Any) -> Any:
                self.seen.append(repr((name, args, kwargs)))
                async for item in attr(*args, **kwargs):
                    yield item

            return stream
        if inspect.iscoroutinefunction(attr):

            async def call(*args: Any, **kwargs: Any) -> Any:
                self.seen.append(repr((name, args, kwargs)))
                return await attr(*args, **kwargs)

            return call

        def plain(*args: Any, **kwargs: Any) -> Any:
            self.seen.append(repr((name, args, kwargs)))
            return attr(*args, **kwargs)

        return plain


@dataclass
class Kit:
    """The fakes behind one PipelineDeps, kept so tests can look at what they received."""

    embedder: FakeEmbedder = field(default_factory=FakeEmbedder)
    index: FakeVectorIndex = field(default_factory=FakeVectorIndex)
    detector: FakePiiDetector = field(default_factory=FakePiiDetector)
    chat_model: FakeChatModel | None = field(default_factory=FakeChatModel)
    store: FakeStore = field(default_factory=FakeStore)
    tracer: RecordingTracer = field(default_factory=RecordingTracer)
    config: PipelineConfig = field(default_factory=lambda: kit_config())
    spies: dict[str, Spy] = field(default_factory=dict)

    def deps(self, *, spy: bool = False) -> PipelineDeps:
        """Ports wrapped with `metered` as the composition root does (and in spies if asked)."""

        def wrap(kind: str, port: Any) -> Any:
            if spy:
                port = self.spies.setdefault(kind, Spy(port))
            return port

        chat = self.chat_model
        return PipelineDeps(
            embedder=metered(wrap("embed", self.embedder), "embed"),
            index=metered(wrap("vector", self.index), "vector"),
            detector=self.detector,
            chat_model=None if chat is None else metered(wrap("llm", chat), "llm"),
            store=metered(wrap("store", self.store), "store"),
            tracer=wrap("tracer", self.tracer),
            prompts=PromptBook.load(),
            config=self.config,
            clock=lambda: NOW,
        )

    def with_config(self, **changes: Any) -> Kit:
        self.config = replace(self.config, **changes)
        return self


async def seeded_kit(**kwargs: Any) -> Kit:
    kit = Kit(**kwargs)
    await seed_core(kit.index, kit.embedder)
    return kit


def runtime(deps: PipelineDeps) -> Runtime[PipelineDeps]:
    return Runtime(context=deps)


RANDOM_ID = re.compile(r"\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b")


def texts_seen(kit: Kit) -> str:
    """Everything the spied ports outside the service received (all but the store), as one
    string to search in. The store is inside the service: it keeps the user's real words.
    Random ids (32 hex digits, dashed or not) are left out: no user wrote them, and a test
    value's digits turn up in one by chance ("4111" in "decb441110...")."""
    seen = "\n".join(
        line for kind, spy in kit.spies.items() if kind != "store" for line in spy.seen
    )
    return RANDOM_ID.sub("<id>", seen)
