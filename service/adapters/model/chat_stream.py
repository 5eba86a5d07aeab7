"""ChatStream: the async iterator of text deltas that ChatModel.stream() returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence

from pipelines.ports import Completion, Message


class ChatStream:
    """Yields text deltas; `completion` (full text, tokens, latency) is set once it has ended.

    It is a plain `AsyncIterator[str]`, so callers that only want the text can ignore the rest.
    """

    def __init__(self, pieces: Callable[[ChatStream], AsyncIterator[str]]) -> None:
        self.completion: Completion | None = None
        self._pieces = pieces(self)

    def __aiter__(self) -> ChatStream:
        return self

    async def __anext__(self) -> str:
        return await anext(self._pieces)

    async def aclose(self) -> None:
        """Stops early and releases the underlying connection."""
        close = getattr(self._pieces, "aclose", None)
        if close is not None:
            await close()


class StreamsDeltas(ABC):
    """`ChatModel.stream()` for an adapter whose stream is one async generator, `_deltas`."""

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> ChatStream:
        return ChatStream(lambda out: self._deltas(messages, temperature, max_tokens, out))

    @abstractmethod
    def _deltas(
        self, messages: Sequence[Message], temperature: float, max_tokens: int, out: ChatStream
    ) -> AsyncIterator[str]:
        """Yields the text deltas; sets `out.completion` once the stream has ended."""
