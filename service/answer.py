"""The one answer schema: `POST /v1/chat`, the stream's `done` event, `warden ask --json` and
the OpenAPI document all show a chat's outcome as a `ChatAnswer` (SPEC section 4)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from pipelines.outcome import ChatOutcome


class SourceOut(BaseModel):
    source: str
    page: int | None
    parent_id: str
    preview: str
    score: float


class CallsOut(BaseModel):
    llm: int
    embed: int
    vector: int
    store: int


class ChatAnswer(BaseModel):
    """The fields of `warden ask --json` (SPEC section 4), plus `trace_id`."""

    route: Literal["reject", "greeting", "question"]
    mode: Literal["generated", "extractive", "degraded", "abstained"] | None
    response: str
    confidence: float
    sources: list[SourceOut]
    pii_found: bool
    pii_entities: list[str]
    safe_query: str | None
    latency_ms: float
    calls: CallsOut
    trace_id: str


_ANSWER = TypeAdapter(ChatAnswer)


def answer_of(outcome: ChatOutcome) -> ChatAnswer:
    return _ANSWER.validate_python(outcome.as_dict())


def answer_json(outcome: ChatOutcome) -> bytes:
    """The answer as compact JSON (what FastAPI makes of `response_model=ChatAnswer`)."""
    return _ANSWER.dump_json(answer_of(outcome))


def answer_dict(outcome: ChatOutcome) -> dict[str, Any]:
    """The answer as plain JSON values (the stream's `done` event, `warden ask --json`)."""
    return answer_of(outcome).model_dump(mode="json")
