"""The graph state (SPEC section 1) and the route names."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from pipelines.ports import Message, Source

QueryType = Literal["abusive", "greeting", "question"]
Route = Literal["reject", "greeting", "question"]
Mode = Literal["generated", "extractive", "degraded", "abstained"]

ROUTE_OF: dict[QueryType, Route] = {
    "abusive": "reject",
    "greeting": "greeting",
    "question": "question",
}


class PipelineState(TypedDict, total=False):
    # request
    query: str  # the raw message; never modified
    user_id: str  # the token's `sub`
    user_name: str
    started_at: float  # time.perf_counter() when the request began (the event's latency)
    chat_history: list[Message]  # raw recent turns, oldest first
    # classify
    query_type: QueryType
    reasons: list[str]
    # retrieve
    safe_query: str
    query_vector: list[float]  # the one embedding of the expanded masked query
    masked_history: list[Message]
    placeholders: Any  # pipelines.safety.placeholders.PlaceholderVault, request memory only
    pii_found: bool
    pii_entities: list[str]
    context: list[str]
    matched_children: list[list[str]]  # per context passage: texts of its children hit, best first
    sources: list[Source]
    confidence: float
    # generate / greet / reject
    response: str
    mode: Mode | None
    latency_ms: float
    tokens: dict[str, int]
    error: str | None
