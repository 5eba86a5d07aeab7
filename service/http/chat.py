"""Chat: one message through the pipeline (exactly as `warden ask`), and one's own history."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, TypeAdapter

from pipelines.outcome import ChatOutcome
from pipelines.ports import StoreUnavailable
from pipelines.safety.classify import Classification
from service.chat_input import check_message
from service.errors import ServiceError, responses
from service.http.deps import ChatCaller, ChatCallerDep, ContainerDep, CurrentUser

router = APIRouter(prefix="/v1/chat", tags=["chat"])
HISTORY_DAYS = 30


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: str  # its length cap is checked in the route: 413, before any other work


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


class ChatResponse(BaseModel):
    """The fields of `warden ask --json` (SPEC section 4), plus `trace_id`."""

    model_config = ConfigDict(extra="allow")

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


class HistoryMessage(BaseModel):
    role: Literal["user", "assistant"]
    content: str
    created_at: datetime
    turn_id: str
    route: str | None


class HistoryResponse(BaseModel):
    messages: list[HistoryMessage]


_CHAT_RESPONSE = TypeAdapter(ChatResponse)


async def answer_chat(
    caller: ChatCaller, message: str, verdict: Classification | None = None
) -> ChatOutcome:
    """The message checks (413, 422), then the pipeline; the chat is counted either way.
    `verdict`: the message's classification, when the caller already made it."""
    container, user = caller.container, caller.user
    message = check_message(message, container.settings.max_message_chars)
    try:
        outcome = await container.pipeline.answer(
            message, user_id=user.user_id, user_name=user.name, verdict=verdict
        )
    except Exception:
        caller.metrics.observe_failure()
        raise
    caller.metrics.observe(outcome)
    return outcome


def chat_response(outcome: ChatOutcome) -> Response:
    """The 200 answer, byte for byte what FastAPI makes of `response_model=ChatResponse`
    (validated, then Pydantic's JSON dump), built here so the fast path can send it too."""
    answer = _CHAT_RESPONSE.validate_python(outcome.as_dict(), from_attributes=True)
    return Response(_CHAT_RESPONSE.dump_json(answer, by_alias=True), media_type="application/json")


@router.post("", response_model=ChatResponse, responses=responses(401, 413, 422, 429))
async def post_chat(body: ChatRequest, caller: ChatCallerDep) -> Response:
    """A rejected (abusive) message is an answer too: 200 with route `reject`."""
    return chat_response(await answer_chat(caller, body.message))


@router.get("/history", responses=responses(401, 422, 503))
async def get_history(
    user: CurrentUser,
    container: ContainerDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> HistoryResponse:
    """The caller's own messages of the last 30 days, oldest first (newest `limit`)."""
    since = container.deps.clock() - timedelta(days=HISTORY_DAYS)
    try:
        records = await container.store.recent_history(user.user_id, since=since, limit=limit)
    except StoreUnavailable:
        raise ServiceError(
            "store_unavailable", "History is unavailable; retry later.", 503
        ) from None
    return HistoryResponse(
        messages=[
            HistoryMessage(
                role=r.role,
                content=r.content,
                created_at=r.created_at,
                turn_id=r.turn_id,
                route=r.route,
            )
            for r in records
        ]
    )
