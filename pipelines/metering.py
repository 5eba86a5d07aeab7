"""Counts the calls made through each port, per request (the `calls` field of SPEC section 4)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, cast

from pipelines.ports import CallCounts

CallKind = Literal["llm", "embed", "vector", "store"]
_current: ContextVar[CallCounts | None] = ContextVar("warden_call_counts", default=None)

# Methods that are housekeeping, not work done for a message.
_UNMETERED = frozenset({"ping", "close", "flush", "dimension"})
# Methods counted whatever their kind. `ChatModel.stream` is a plain `def` that returns its
# async iterator (the adapters' ChatStream), so the coroutine checks below would miss it.
_METERED_ANY_KIND = frozenset({"stream"})


@contextmanager
def metering() -> Iterator[CallCounts]:
    """Counts every metered port call made inside the block (and tasks it spawns)."""
    counts = CallCounts()
    token = _current.set(counts)
    try:
        yield counts
    finally:
        _current.reset(token)


def record(kind: CallKind) -> None:
    counts = _current.get()
    if counts is not None:
        setattr(counts, kind, getattr(counts, kind) + 1)


class _Metered:
    def __init__(self, inner: Any, kind: CallKind) -> None:
        self._inner = inner
        self._kind = kind

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name.startswith("_") or name in _UNMETERED or not callable(attr):
            return attr
        if inspect.isasyncgenfunction(attr):
            return self._wrap_stream(attr)
        if inspect.iscoroutinefunction(attr):
            return self._wrap_call(attr)
        if name in _METERED_ANY_KIND:
            return self._wrap_plain(attr)
        return attr

    def _wrap_plain(self, method: Callable[..., Any]) -> Callable[..., Any]:
        """Counted when called; what it returns (e.g. a ChatStream) is passed on untouched."""

        def call(*args: Any, **kwargs: Any) -> Any:
            record(self._kind)
            return method(*args, **kwargs)

        return call

    def _wrap_call(self, method: Callable[..., Any]) -> Callable[..., Any]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            record(self._kind)
            return await method(*args, **kwargs)

        return call

    def _wrap_stream(self, method: Callable[..., AsyncIterator[Any]]) -> Callable[..., Any]:
        async def stream(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            record(self._kind)
            async for item in method(*args, **kwargs):
                yield item

        return stream


def metered[P](port: P, kind: CallKind) -> P:
    """Wraps a port so each call through it is counted under `kind`."""
    return cast(P, _Metered(port, kind))
