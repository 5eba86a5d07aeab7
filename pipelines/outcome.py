"""ChatOutcome: what one message produced, as the API and `warden ask --json` show it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipelines.ports import CallCounts, Source
from pipelines.state import Mode, PipelineState, Route
from pipelines.tracing import NO_ANSWER, NO_GATE, NO_RETRIEVAL, gate_fell_back, outcome_error


@dataclass(frozen=True)
class ChatOutcome:
    route: Route
    mode: Mode | None
    response: str
    confidence: float
    sources: list[Source]
    pii_found: bool
    pii_entities: list[str]
    safe_query: str | None  # the masked question; None off the question path
    latency_ms: float  # the whole request
    calls: CallCounts
    trace_id: str
    tokens: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    # the answer gate (reason codes only, never text): generated attempts checked, each
    # refusal's reason, and whether the answer degraded at the cap
    answer_attempts: int = 0
    gate_reasons: tuple[str, ...] = ()
    gate_fallback: bool = False
    gate_ms: float = 0.0  # time spent in the answer gate, all attempts

    @classmethod
    def from_state(
        cls, state: PipelineState, *, calls: CallCounts, latency_ms: float
    ) -> ChatOutcome:
        route = state["verdict"].route
        answer, found = state.get("answer", NO_ANSWER), state.get("retrieval", NO_RETRIEVAL)
        gate = state.get("gate", NO_GATE)
        return cls(
            route=route,
            mode=answer.mode if route == "question" else None,
            response=answer.response,
            confidence=round(float(found.confidence), 2),
            sources=list(found.sources),
            pii_found=found.pii_found,
            pii_entities=list(found.pii_entities),
            safe_query=found.safe_query if route == "question" else None,
            latency_ms=round(latency_ms, 2),
            calls=calls,
            trace_id=state["turn"].trace_id,
            tokens={k: answer.tokens.get(k, 0) for k in ("prompt", "completion")},
            error=outcome_error(state),
            answer_attempts=gate.attempts,
            gate_reasons=gate.reasons,
            gate_fallback=gate_fell_back(state),
            gate_ms=gate.check_ms,
        )

    def as_dict(self) -> dict[str, Any]:
        """The fields of `warden ask --json` (SPEC section 4), plus `trace_id`."""
        return {
            "route": self.route,
            "mode": self.mode,
            "response": self.response,
            "confidence": self.confidence,
            "sources": [source.as_dict() for source in self.sources],
            "pii_found": self.pii_found,
            "pii_entities": list(self.pii_entities),
            "safe_query": self.safe_query,
            "latency_ms": self.latency_ms,
            "calls": self.calls.as_dict(),
            "trace_id": self.trace_id,
        }
