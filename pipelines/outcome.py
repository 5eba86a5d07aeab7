"""ChatOutcome: what one message produced, as the API and `warden ask --json` show it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipelines.ports import CallCounts, Source
from pipelines.state import ROUTE_OF, Mode, PipelineState, Route


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

    @classmethod
    def from_state(
        cls, state: PipelineState, *, calls: CallCounts, latency_ms: float, trace_id: str
    ) -> ChatOutcome:
        route = ROUTE_OF[state.get("query_type", "question")]
        tokens = state.get("tokens") or {}
        return cls(
            route=route,
            mode=state.get("mode") if route == "question" else None,
            response=state.get("response", ""),
            confidence=round(float(state.get("confidence", 0.0)), 2),
            sources=list(state.get("sources", [])),
            pii_found=bool(state.get("pii_found", False)),
            pii_entities=list(state.get("pii_entities", [])),
            safe_query=state.get("safe_query") if route == "question" else None,
            latency_ms=round(latency_ms, 2),
            calls=calls,
            trace_id=trace_id,
            tokens={"prompt": tokens.get("prompt", 0), "completion": tokens.get("completion", 0)},
            error=state.get("error"),
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
