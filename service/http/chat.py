"""Chat: one message through the pipeline (exactly as `warden ask`), and one's own history."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from pipelines.ports import ChatRecord, HistoryCursor
from service.answer import ChatAnswer, answer_json
from service.errors import ServiceError, responses
from service.http.deps import AcceptedDep, ChatDep, CurrentUser, RateLimitedUser
from service.http.idempotency import IdempotencyKey, IdempotentDep

router = APIRouter(prefix="/v1/chat", tags=["chat"])


class HistoryMessage(BaseModel):
    role: Literal["user", "assistant"]
    content: str
    created_at: datetime
    turn_id: str
    route: str | None

    @classmethod
    def of(cls, record: ChatRecord) -> HistoryMessage:
        return cls(
            role=record.role,
            content=record.content,
            created_at=record.created_at,
            turn_id=record.turn_id,
            route=record.route,
        )


class HistoryResponse(BaseModel):
    messages: list[HistoryMessage]
    # Pass as `cursor` for the page of older messages; null when this page is the last
    # (a full page may still be followed by an empty one).
    next_cursor: str | None = None


# A cursor is the position's UTC time in microseconds since 1970 (14 hex digits: up to the
# year 4253) and its role (0 user, 1 assistant): every string of this shape is a valid cursor,
# so the OpenAPI pattern says exactly what the route accepts.
CURSOR_PATTERN = r"^[0-9a-f]{14}[01]$"
_ROLES: tuple[Literal["user", "assistant"], ...] = ("user", "assistant")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def encode_cursor(cursor: HistoryCursor) -> str:
    micros = (cursor.created_at - _EPOCH) // timedelta(microseconds=1)
    return f"{micros:014x}{_ROLES.index(cursor.role)}"


def decode_cursor(text: str) -> HistoryCursor:
    if not re.fullmatch(CURSOR_PATTERN, text):
        raise ServiceError("invalid_request", "The history cursor is not valid.", 422)
    return HistoryCursor(_EPOCH + timedelta(microseconds=int(text[:14], 16)), _ROLES[int(text[14])])


@router.post("", response_model=ChatAnswer, responses=responses(401, 409, 413, 422, 429, 503))
async def post_chat(
    user: RateLimitedUser,
    message: AcceptedDep,
    chat: ChatDep,
    key: IdempotencyKey,
    idempotent: IdempotentDep,
) -> Response:
    """A rejected (abusive) message is an answer too: 200 with route `reject`."""
    if key is None:
        outcome = await chat.answer(user, message)
    else:
        outcome = await idempotent.answer(user, message, key)
    return Response(answer_json(outcome), media_type="application/json")


@router.get("/history", responses=responses(401, 422, 503))
async def get_history(
    user: CurrentUser,
    chat: ChatDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(pattern=CURSOR_PATTERN)] = None,
) -> HistoryResponse:
    """The caller's own messages of the last 30 days, oldest first (newest `limit`); with
    `cursor` (a previous page's `next_cursor`), the `limit` messages before that page."""
    before = None if cursor is None else decode_cursor(cursor)
    records = await chat.history(user, limit=limit, before=before)
    full = len(records) == limit
    return HistoryResponse(
        next_cursor=encode_cursor(HistoryCursor.at(records[0])) if full else None,
        messages=[HistoryMessage.of(r) for r in records],
    )
