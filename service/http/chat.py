"""Chat: one message through the pipeline (exactly as `warden ask`), and one's own history."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from service.answer import ChatAnswer, answer_json
from service.errors import responses
from service.http.deps import AcceptedDep, ChatDep, CurrentUser, RateLimitedUser

router = APIRouter(prefix="/v1/chat", tags=["chat"])


class HistoryMessage(BaseModel):
    role: Literal["user", "assistant"]
    content: str
    created_at: datetime
    turn_id: str
    route: str | None


class HistoryResponse(BaseModel):
    messages: list[HistoryMessage]


@router.post("", response_model=ChatAnswer, responses=responses(401, 413, 422, 429))
async def post_chat(user: RateLimitedUser, message: AcceptedDep, chat: ChatDep) -> Response:
    """A rejected (abusive) message is an answer too: 200 with route `reject`."""
    outcome = await chat.answer(user, message)
    return Response(answer_json(outcome), media_type="application/json")


@router.get("/history", responses=responses(401, 422, 503))
async def get_history(
    user: CurrentUser, chat: ChatDep, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> HistoryResponse:
    """The caller's own messages of the last 30 days, oldest first (newest `limit`)."""
    records = await chat.history(user, limit=limit)
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
