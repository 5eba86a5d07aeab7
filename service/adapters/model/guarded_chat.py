"""GuardedChatModel: a pybreaker circuit breaker around any ChatModel, counted per chat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pybreaker

from pipelines.ports import ChatModel, Completion, Message, ModelUnavailable
from service.adapters.model.chat_stream import ChatStream, StreamsDeltas

log = logging.getLogger(__name__)


class _Abandoned(Exception):
    """Stands in for a cancellation inside the breaker, so pybreaker counts it as a failure."""


class _LogStateChanges(pybreaker.CircuitBreakerListener):
    def state_change(self, cb: pybreaker.CircuitBreaker, old_state: Any, new_state: Any) -> None:
        log.warning(
            "chat model circuit breaker %s -> %s", getattr(old_state, "name", None), new_state.name
        )


class GuardedChatModel(StreamsDeltas):
    """Every chat is one breaker call: retries inside `inner` (the OpenAI client's
    `max_retries`) are one failure. An open breaker raises ModelUnavailable("breaker_open")
    at once, without calling `inner`. A stream counts as a failure only if it fails before its
    first delta; a failure after that is raised (as ModelUnavailable) but not counted.

    Note: `@breaker` on an `async def` does not protect it (pybreaker 1.4 sees a coroutine
    object and calls that a success), so the call is awaited inside `breaker.calling()`.
    """

    def __init__(
        self,
        inner: ChatModel,
        breaker: pybreaker.CircuitBreaker | None = None,
        *,
        fail_max: int = 5,
        reset_timeout_s: float = 30.0,
    ) -> None:
        self.inner = inner
        if breaker is None:
            breaker = pybreaker.CircuitBreaker(
                fail_max=fail_max,
                reset_timeout=reset_timeout_s,
                name="chat_model",
                listeners=[_LogStateChanges()],
            )
        self.breaker = breaker

    @property
    def state(self) -> str:
        """ "closed", "open" or "half-open" (pybreaker's names)."""
        return str(self.breaker.current_state)

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        return await self._guarded(
            lambda: self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens)
        )

    async def _deltas(
        self, messages: Sequence[Message], temperature: float, max_tokens: int, out: ChatStream
    ) -> AsyncIterator[str]:
        started: list[AsyncIterator[str]] = []

        async def first_delta() -> str | None:
            pieces = self.inner.stream(messages, temperature=temperature, max_tokens=max_tokens)
            started.append(pieces)
            return await anext(pieces, None)

        first = await self._guarded(first_delta)
        pieces = started[0]
        try:
            if first is not None:
                yield first
                async for piece in pieces:
                    yield piece
        finally:
            out.completion = getattr(pieces, "completion", None)
            close = getattr(pieces, "aclose", None)
            if close is not None:
                await close()

    async def ping(self) -> None:
        """Probes the model itself; a probe neither counts against nor resets the breaker."""
        await self.inner.ping()

    async def _guarded[T](self, call: Callable[[], Awaitable[T]]) -> T:
        failure: BaseException | None = None
        try:
            with self.breaker.calling():
                try:
                    return await call()
                except asyncio.CancelledError as exc:
                    failure = exc
                    raise _Abandoned from exc
                except BaseException as exc:
                    failure = exc
                    raise
        except pybreaker.CircuitBreakerError as exc:
            if failure is None:  # rejected before `call` ran
                raise ModelUnavailable("breaker_open") from exc
            raise failure from None  # this call failed and tripped the breaker: say why
        except _Abandoned:
            assert failure is not None
            raise failure from None
