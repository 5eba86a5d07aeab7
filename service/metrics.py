"""Prometheus metrics, fed by ChatService from each chat's ChatOutcome (never from `pipelines`).

One `ChatMetrics` per app, on its own `CollectorRegistry` (not prometheus_client's global
one), so two apps in one process (tests) never share counts. Labels hold codes and names
only, never text: route, mode, error code, port kind, Presidio entity type.
"""

from __future__ import annotations

from functools import partial

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import choose_encoder

from pipelines.outcome import ChatOutcome
from pipelines.ports import CallCounts

LATENCY_BUCKETS_S = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0)
CONFIDENCE_BUCKETS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0)
INTERNAL_ERROR = "internal_error"


class ChatMetrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        counter = partial(Counter, registry=self.registry)
        histogram = partial(Histogram, registry=self.registry)
        self.chats = counter(
            "warden_chats", "Chats answered, by route and mode.", ["route", "mode"]
        )
        self.rejects = counter("warden_rejects", "Messages rejected as abusive.")
        self.pii_chats = counter(
            "warden_pii_found", "Chats whose message or history held personal data."
        )
        self.pii_entities = counter(
            "warden_pii_entities", "Chats by entity type found.", ["entity_type"]
        )
        self.errors = counter(
            "warden_chat_errors", "Chats that degraded or failed, by error code.", ["code"]
        )
        self.port_calls = counter(
            "warden_port_calls", "Calls made through the ports, by kind.", ["kind"]
        )
        self.tokens = counter(
            "warden_model_tokens", "Model tokens used, prompt and completion.", ["kind"]
        )
        self.gate_failures = counter(
            "warden_answer_gate_failures",
            "Generated answers the answer gate refused, by reason code.",
            ["reason"],
        )
        self.answer_retries = counter(
            "warden_answer_retries", "Model calls made again after the answer gate refused."
        )
        self.answer_fallbacks = counter(
            "warden_answer_fallbacks",
            "Chats whose generated answers all failed the answer gate (extractive instead).",
        )
        self.latency = histogram(
            "warden_chat_latency_seconds",
            "Whole-chat latency, by route.",
            ["route"],
            buckets=LATENCY_BUCKETS_S,
        )
        self.confidence = histogram(
            "warden_chat_confidence",
            "Retrieval confidence (0-100) of question chats.",
            buckets=CONFIDENCE_BUCKETS,
        )
        # Label children bound once (a `labels()` lookup per use costs more than the count).
        # Port calls and tokens exist from the start; the others appear when first used.
        self._port_calls = {k: self.port_calls.labels(kind=k) for k in CallCounts().as_dict()}
        self._tokens = {kind: self.tokens.labels(kind=kind) for kind in ("prompt", "completion")}
        self._chats: dict[tuple[str, str], Counter] = {}
        self._latency: dict[str, Histogram] = {}

    def observe(self, outcome: ChatOutcome) -> None:
        """Counts one answered chat (a rejected message is an answer too)."""
        route, mode = outcome.route, outcome.mode or "none"
        chats = self._chats.get((route, mode))
        if chats is None:
            chats = self._chats[route, mode] = self.chats.labels(route=route, mode=mode)
        chats.inc()
        if route == "reject":
            self.rejects.inc()
        if outcome.pii_found:
            self.pii_chats.inc()
        for entity_type in set(outcome.pii_entities):
            self.pii_entities.labels(entity_type=entity_type).inc()
        if outcome.error:
            self.errors.labels(code=outcome.error).inc()
        for kind, count in outcome.calls.as_dict().items():
            if count:  # adding 0 changes nothing
                self._port_calls[kind].inc(count)
        for kind, counter in self._tokens.items():
            if count := outcome.tokens.get(kind, 0):
                counter.inc(count)
        for reason in outcome.gate_reasons:
            self.gate_failures.labels(reason=reason).inc()
        if outcome.answer_attempts > 1:
            self.answer_retries.inc(outcome.answer_attempts - 1)
        if outcome.gate_fallback:
            self.answer_fallbacks.inc()
        latency = self._latency.get(route)
        if latency is None:
            latency = self._latency[route] = self.latency.labels(route=route)
        latency.observe(outcome.latency_ms / 1000)
        if route == "question":
            self.confidence.observe(outcome.confidence)

    def observe_failure(self, code: str = INTERNAL_ERROR) -> None:
        """A chat that produced no outcome (an unexpected exception)."""
        self.errors.labels(code=code).inc()

    def render(self, accept: str = "") -> tuple[bytes, str]:
        """The exposition (Prometheus text, or OpenMetrics if `accept` asks) and its type."""
        encoder, content_type = choose_encoder(accept)
        return encoder(self.registry), content_type
