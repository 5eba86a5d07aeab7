"""POST /v1/chat/stream: the same chat as POST /v1/chat, as server-sent events.

Same body, size cap, token and rate limit as POST /v1/chat; those failures are plain JSON
errors (401, 413, 422, 429) before any event. After a 200, the events are, in order
(each `data:` line is one JSON object):

  event: meta   {"trace_id": "...", "route": "reject" | "greeting" | "question"}
                once, first, as soon as the message is classified.
  event: token  {"text": "..."}
                zero or more pieces of the answer, with the user's own values restored. A
                generated answer streams as the model writes it; any other answer (reject,
                greeting, extractive, abstained, degraded) comes as one token.
  event: reset  {}
                rare: throw away the text shown so far (the model failed mid-answer, so the
                answer degraded to the sources); the replacement follows as tokens.
  event: done   {the fields of POST /v1/chat: route, mode, response, ..., calls, trace_id}
                once, last. Its `response` is the answer, and equals the tokens since the
                last reset, joined.
  event: error  {"error": "internal_error", "detail": "..."}
                instead of `done`, if the chat failed unexpectedly.

The chat runs in its own task (ChatService.stream): a client that goes away does not cancel
it, so the turn is saved to the history, traced and counted once, exactly as for POST /v1/chat.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.sse import EventSourceResponse, ServerSentEvent

from service.answer import answer_dict
from service.chat_events import ChatEvent, Done, Failed, Reset, Started, Token
from service.http.deps import AcceptedDep, ChatDep, RateLimitedUser
from service.http.idempotency import IdempotencyKey, IdempotentDep

router = APIRouter(prefix="/v1/chat", tags=["chat"])


def _json_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error envelope, declared as JSON (`responses()` would use the route's SSE type)."""
    schema = {"$ref": "#/components/schemas/ErrorBody"}
    return {status: {"content": {"application/json": {"schema": schema}}} for status in statuses}


def server_sent(event: ChatEvent) -> ServerSentEvent:
    match event:
        case Started(route=route, trace_id=trace_id):
            return ServerSentEvent(event="meta", data={"trace_id": trace_id, "route": route})
        case Token(text=text):
            return ServerSentEvent(event="token", data={"text": text})
        case Reset():
            return ServerSentEvent(event="reset", data={})
        case Done(outcome=outcome):
            return ServerSentEvent(event="done", data=answer_dict(outcome))
        case Failed(error=error, detail=detail):
            return ServerSentEvent(event="error", data={"error": error, "detail": detail})


async def chat_events(
    user: RateLimitedUser,
    message: AcceptedDep,
    chat: ChatDep,
    key: IdempotencyKey,
    idempotent: IdempotentDep,
) -> AsyncIterator[ChatEvent]:
    """The chat's events; an Idempotency-Key is claimed here, before the response starts,
    so its refusals are plain JSON errors."""
    if key is None:
        return chat.stream(user, message)
    return await idempotent.stream(user, message, key)


ChatEvents = Annotated[AsyncIterator[ChatEvent], Depends(chat_events)]


@router.post(
    "/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "Events: `meta` {trace_id, route}; `token` {text} (zero or more); "
            "`reset` {} (discard the text shown; new tokens follow); `done` {the fields of "
            "POST /v1/chat}, or `error` {error, detail}."
        },
        **_json_errors(401, 409, 413, 422, 429, 503),
    },
)
async def post_chat_stream(events: ChatEvents) -> AsyncIterable[ServerSentEvent]:
    """With an Idempotency-Key, a retry of a finished chat replays its answer as a stream:
    `meta`, one `token` with the whole answer, `done`."""
    async for event in events:
        yield server_sent(event)
