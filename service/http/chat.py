"""Chat: one message through the pipeline (exactly as `warden ask`), and one's own history."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from pipelines.ports import HistoryCursor
from service.answer import ChatAnswer, answer_json
from service.errors import ServiceError, responses
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
    # Pass as `cursor` for the page of older messages; null when this page is the last
    # (a full page may still be followed by an empty one).
    next_cursor: str | None = None


def encode_cursor(cursor: HistoryCursor) -> str:
    raw = f"{cursor.created_at.isoformat()}|{cursor.role}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: str) -> HistoryCursor:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
        at, role = raw.rsplit("|", 1)
        created_at = datetime.fromisoformat(at)
        if role not in ("user", "assistant") or created_at.tzinfo is None:
            raise ValueError(role)
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        raise ServiceError("invalid_request", "The history cursor is not valid.", 422) from None
    return HistoryCursor(created_at, role)  # type: ignore[arg-type]


@router.post("", response_model=ChatAnswer, responses=responses(401, 413, 422, 429))
async def post_chat(user: RateLimitedUser, message: AcceptedDep, chat: ChatDep) -> Response:
    """A rejected (abusive) message is an answer too: 200 with route `reject`."""
    outcome = await chat.answer(user, message)
    return Response(answer_json(outcome), media_type="application/json")


@router.get("/history", responses=responses(401, 422, 503))
async def get_history(
    user: CurrentUser,
    chat: ChatDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> HistoryResponse:
    """The caller's own messages of the last 30 days, oldest first (newest `limit`); with
    `cursor` (a previous page's `next_cursor`), the `limit` messages before that page."""
    before = None if cursor is None else decode_cursor(cursor)
    records = await chat.history(user, limit=limit, before=before)
    full = len(records) == limit
    return HistoryResponse(
        next_cursor=encode_cursor(HistoryCursor.at(records[0])) if full else None,
        messages=[
            HistoryMessage(
                role=r.role,
                content=r.content,
                created_at=r.created_at,
                turn_id=r.turn_id,
                route=r.route,
            )
            for r in records
        ],
    )
