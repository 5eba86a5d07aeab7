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

The chat runs in its own task: a client that goes away does not cancel it, so the turn is
saved to the history, traced and counted once, exactly as for POST /v1/chat.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import AsyncGenerator, AsyncIterable, Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.sse import EventSourceResponse, ServerSentEvent

from pipelines.outcome import ChatOutcome
from pipelines.runner import ChatPipeline
from pipelines.streaming import Started, StreamUpdate, Token
from service.auth.tokens import Principal
from service.chat_input import check_message
from service.http.chat import ChatRequest
from service.http.deps import ContainerDep, RateLimitedUser
from service.metrics import ChatMetrics, MetricsDep

router = APIRouter(prefix="/v1/chat", tags=["chat"])
log = logging.getLogger("warden.stream")
FAILED = "failed"  # what the chat task sends instead of an outcome when it raised
Item = StreamUpdate | ChatOutcome | str
_running: set[asyncio.Task[None]] = set()  # referenced until done: a disconnect never stops one


def _json_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error envelope, declared as JSON (`responses()` would use the route's SSE type)."""
    schema = {"$ref": "#/components/schemas/ErrorBody"}
    return {status: {"content": {"application/json": {"schema": schema}}} for status in statuses}


async def checked_message(body: ChatRequest, container: ContainerDep) -> str:
    """The size cap and emptiness checks of POST /v1/chat, before the response starts."""
    return check_message(body.message, container.settings.max_message_chars)


@router.post(
    "/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "Events: `meta` {trace_id, route}; `token` {text} (zero or more); "
            "`reset` {} (discard the text shown; new tokens follow); `done` {the fields of "
            "POST /v1/chat}, or `error` {error, detail}."
        },
        **_json_errors(401, 413, 422, 429),
    },
)
async def post_chat_stream(
    user: RateLimitedUser,
    message: Annotated[str, Depends(checked_message)],
    container: ContainerDep,
    metrics: MetricsDep,
) -> AsyncIterable[ServerSentEvent]:
    queue = start_chat(container.pipeline, metrics, message, user)
    async for event in chat_events(queue):
        yield event


def start_chat(
    pipeline: ChatPipeline, metrics: ChatMetrics, message: str, user: Principal
) -> asyncio.Queue[Item]:
    """Runs the chat in a task of its own; its updates, then its outcome, arrive on the queue."""
    queue: asyncio.Queue[Item] = asyncio.Queue()

    async def run() -> None:
        try:
            outcome = await pipeline.answer(
                message, user_id=user.user_id, user_name=user.name, listener=queue.put_nowait
            )
        except Exception as exc:  # noqa: BLE001 - reported as an `error` event
            frames = "".join(traceback.format_tb(exc.__traceback__))
            log.error("streamed chat failed: %s\n%s", type(exc).__name__, frames)
            metrics.observe_failure()
            queue.put_nowait(FAILED)
            return
        metrics.observe(outcome)
        queue.put_nowait(outcome)

    task = asyncio.create_task(run())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return queue


async def chat_events(queue: asyncio.Queue[Item]) -> AsyncGenerator[ServerSentEvent]:
    shown: list[str] = []
    while True:
        item = await queue.get()
        if isinstance(item, Started):
            yield ServerSentEvent(
                event="meta", data={"trace_id": item.trace_id, "route": item.route}
            )
        elif isinstance(item, Token):
            shown.append(item.text)
            yield ServerSentEvent(event="token", data={"text": item.text})
        elif isinstance(item, ChatOutcome):
            for event in closing_events("".join(shown), item):
                yield event
            return
        else:
            detail = "Something went wrong on our side."
            yield ServerSentEvent(event="error", data={"error": "internal_error", "detail": detail})
            return


def closing_events(shown: str, outcome: ChatOutcome) -> Iterator[ServerSentEvent]:
    """Whatever makes the shown text the answer (the whole answer if none streamed), then done."""
    if outcome.response != shown:
        if shown:
            yield ServerSentEvent(event="reset", data={})
        if outcome.response:
            yield ServerSentEvent(event="token", data={"text": outcome.response})
    yield ServerSentEvent(event="done", data=outcome.as_dict())


async def finish_running_chats(timeout_s: float) -> None:
    """At shutdown: lets chats whose client went away finish (bounded), before stores close."""
    if _running:
        await asyncio.wait(set(_running), timeout=timeout_s)
