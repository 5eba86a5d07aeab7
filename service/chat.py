"""ChatService: the chat use case, written once for every edge (HTTP, SSE, CLI, the fast
refusal). It checks a message, classifies it once, runs the pipeline, counts the outcome,
and reads a user's history. Edges only translate to and from their own formats.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pipelines.outcome import ChatOutcome
from pipelines.ports import ChatRecord, ChatStore, HistoryCursor, StoreUnavailable
from pipelines.runner import ChatPipeline
from pipelines.state import Classification
from pipelines.streaming import Listener, Retract, Started, StreamUpdate, Token
from service.auth.tokens import Principal
from service.chat_events import ChatEvent, Done, Failed, Reset, closing_events  # noqa: F401
from service.errors import ServiceError
from service.metrics import ChatMetrics

log = logging.getLogger("warden.chat")
HISTORY_DAYS = 30
Settle = Callable[[ChatOutcome | None], Awaitable[None]]


@dataclass(frozen=True)
class AcceptedMessage:
    """A message that passed the checks, with the one classification made of it."""

    text: str
    verdict: Classification


def check_message(message: str, max_chars: int) -> str:
    """Size first (413 `message_too_large`), then emptiness (422 `empty_message`)."""
    if len(message) > max_chars:
        raise ServiceError(
            "message_too_large", f"The message is longer than {max_chars} characters.", 413
        )
    if not message.strip():
        raise ServiceError("empty_message", "The message is empty.", 422)
    return message


class ChatService:
    def __init__(
        self,
        pipeline: ChatPipeline,
        store: ChatStore,
        metrics: ChatMetrics,
        *,
        max_message_chars: int,
        clock: Callable[[], datetime],
    ) -> None:
        self.pipeline = pipeline
        self.metrics = metrics
        self._store = store
        self._max_chars = max_message_chars
        self._clock = clock
        self._running: set[asyncio.Task[None]] = set()  # streamed chats: never cancelled

    def accept(self, message: str) -> AcceptedMessage:
        """The checks (413, 422) before any work, then the message's one classification."""
        check_message(message, self._max_chars)
        return AcceptedMessage(message, self.pipeline.classify(message))

    async def answer(
        self,
        caller: Principal,
        message: AcceptedMessage | str,
        *,
        listener: Listener | None = None,
        turn_id: str = "",
    ) -> ChatOutcome:
        """One message through the pipeline; the chat is counted either way. A `turn_id`
        (a retried request's) stores its history turn once however often it runs."""
        accepted = message if isinstance(message, AcceptedMessage) else self.accept(message)
        try:
            outcome = await self.pipeline.answer(
                accepted.text,
                accepted.verdict,
                user_id=caller.user_id,
                user_name=caller.name,
                listener=listener,
                turn_id=turn_id,
            )
        except Exception:
            self.metrics.observe_failure()
            raise
        self.metrics.observe(outcome)
        return outcome

    async def stream(
        self,
        caller: Principal,
        message: AcceptedMessage | str,
        *,
        turn_id: str = "",
        settle: Settle | None = None,
    ) -> AsyncIterator[ChatEvent]:
        """The same chat as typed events. It runs in a task of its own: a client that goes
        away does not cancel it, so the turn is saved, traced and counted exactly once. That
        task hands `settle` the outcome (None if the chat failed) before the last event."""
        accepted = message if isinstance(message, AcceptedMessage) else self.accept(message)
        queue: asyncio.Queue[StreamUpdate | ChatOutcome | None] = asyncio.Queue()

        async def run() -> None:
            outcome = None
            try:
                outcome = await self.answer(
                    caller, accepted, listener=queue.put_nowait, turn_id=turn_id
                )
            except Exception as exc:  # noqa: BLE001 - reported as a `Failed` event
                frames = "".join(traceback.format_tb(exc.__traceback__))
                log.error("streamed chat failed: %s\n%s", type(exc).__name__, frames)
            if settle is not None:
                await settle(outcome)
            queue.put_nowait(outcome)

        task = asyncio.create_task(run())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        shown: list[str] = []
        while True:
            item = await queue.get()
            if isinstance(item, Token):
                shown.append(item.text)
            if isinstance(item, Retract):  # the answer gate refused what was shown
                if shown:
                    yield Reset()
                shown.clear()
            elif isinstance(item, Started | Token):
                yield item
            elif isinstance(item, ChatOutcome):
                for event in closing_events("".join(shown), item):
                    yield event
                return
            else:
                yield Failed()
                return

    async def history(
        self, caller: Principal, *, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        """The caller's own messages of the last 30 days, oldest first (the newest `limit`;
        with `before`, the newest `limit` older than it: the next page back)."""
        since = self._clock() - timedelta(days=HISTORY_DAYS)
        try:
            return await self._store.recent_history(
                caller.user_id, since=since, limit=limit, before=before
            )
        except StoreUnavailable:
            raise ServiceError(
                "store_unavailable", "History is unavailable; retry later.", 503
            ) from None

    async def finish_running(self, timeout_s: float) -> None:
        """At shutdown: lets streamed chats whose client went away finish (bounded)."""
        if self._running:
            await asyncio.wait(set(self._running), timeout=timeout_s)


__all__ = ["AcceptedMessage", "ChatEvent", "ChatService", "Done", "Reset", "check_message"]
