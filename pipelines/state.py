"""The graph state (SPEC section 1): the request, then one small typed record per stage.

`classify` adds the `Classification`, `retrieve` a `Retrieval`, and `reject`, `greet` or
`generate` an `Answer`; `check_answer` a `GateOutcome` (and `degrade` a replacing `Answer`
when the generated ones fail the gate); `post_process` only notes a history failure. Every
record is frozen: a later stage reads what an earlier one produced and never recomputes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from pipelines.ports import Message, Source
from pipelines.safety.placeholders import PlaceholderVault

QueryType = Literal["abusive", "greeting", "question"]
Route = Literal["reject", "greeting", "question"]
Mode = Literal["generated", "extractive", "degraded", "abstained"]

ROUTE_OF: dict[QueryType, Route] = {
    "abusive": "reject",
    "greeting": "greeting",
    "question": "question",
}
NO_TOKENS: dict[str, int] = {"prompt": 0, "completion": 0}


@dataclass(frozen=True)
class Classification:
    """The route decision, made once per message by `classify_message`."""

    query_type: QueryType
    reasons: tuple[str, ...]

    @property
    def route(self) -> Route:
        return ROUTE_OF[self.query_type]


@dataclass(frozen=True)
class ChatTurn:
    """One message as the edge received it. `query` is the raw text and is never modified."""

    query: str
    user_id: str  # the verified token's `sub`
    user_name: str
    trace_id: str
    started_at: float  # time.perf_counter() when the request began
    history: tuple[Message, ...] = ()  # raw recent turns, oldest first (question route only)
    streamed: bool = False  # the edge shows the generated answer as the model writes it
    turn_id: str = ""  # the history's id for this turn; empty: a new random one


@dataclass(frozen=True)
class Retrieval:
    """What `retrieve` found, and the masked forms `generate` needs (request memory only)."""

    safe_query: str  # the masked question: the only form that leaves the process
    search_text: str = ""  # the masked question without its placeholders
    expansion: str = ""  # keyword expansions appended to it; embedded with it (embedding_text)
    query_vector: tuple[float, ...] = ()
    masked_history: tuple[Message, ...] = ()
    vault: PlaceholderVault = field(default_factory=PlaceholderVault)
    pii_entities: tuple[str, ...] = ()  # Presidio entity types found in the question
    context: tuple[str, ...] = ()  # parent texts, best first
    matched_children: tuple[tuple[str, ...], ...] = ()  # per parent: its children hit, best first
    sources: tuple[Source, ...] = ()
    confidence: float = 0.0  # top dense score x 100
    # named retrieval signals for the answer gate (pipelines/coverage.gate_signals): from
    # pipelines/fusion.py dense_top (best cosine), dense_second (best cosine of the second
    # parent by dense rank), sparse_top, sparse_second (BM25, same), fused_top, fused_second
    # (fused scores), margin (fused_top - fused_second), agreement (1.0: dense and sparse rank
    # the same parent first), top_in_both (1.0: both searches found the first parent); from
    # pipelines/coverage.py coverage and named_coverage (the share of the question's terms,
    # and of its named terms, in the top parent); a missing name reads as 0
    signals: Mapping[str, float] = field(default_factory=dict)
    error: str | None = None  # pii_detector_unavailable, retrieval_unavailable

    @property
    def pii_found(self) -> bool:
        return bool(self.pii_entities)


@dataclass(frozen=True)
class Draft:
    """A generated answer as the model wrote it, and what it was given (request memory only:
    the answer gate reads it; it is never traced, logged or stored)."""

    reply: str  # masked
    passages: tuple[str, ...]  # the masked passages sent, numbered from 1
    system_prompt: str
    sent: tuple[str, ...] = ()  # the masked history window


@dataclass(frozen=True)
class Answer:
    """The reply of `reject`, `greet`, `generate` or `degrade`, and what it cost (summed over
    the attempts of the correction loop)."""

    response: str
    mode: Mode | None = None  # None off the question path
    model_latency_ms: float = 0.0
    tokens: dict[str, int] = field(default_factory=lambda: dict(NO_TOKENS))
    error: str | None = None
    draft: Draft | None = None  # mode "generated" only: what the answer gate checks


@dataclass(frozen=True)
class GateOutcome:
    """`check_answer`'s record: the generated attempts checked, each refusal's reason code
    (pipelines/answer_gate.py), and the feedback for the next attempt (never traced)."""

    attempts: int = 0
    limit: int = 1  # attempts allowed: 1 + WARDEN_ANSWER_RETRIES
    reasons: tuple[str, ...] = ()
    passed: bool = False
    feedback: str = ""
    check_ms: float = 0.0  # time spent in the gate, all attempts

    @property
    def retry(self) -> bool:
        return not self.passed and self.attempts < self.limit


class PipelineState(TypedDict, total=False):
    turn: ChatTurn
    verdict: Classification
    retrieval: Retrieval
    answer: Answer
    gate: GateOutcome  # check_answer, on the generated path only
    history_error: str | None  # post_process: the turn went to the outbox, not the store
