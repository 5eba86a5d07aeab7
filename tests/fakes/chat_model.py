"""FakeChatModel: a scripted ChatModel that records every call it gets."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipelines.ports import Completion, Message, ModelUnavailable
from service.adapters.model.chat_stream import ChatStream


@dataclass
class ChatCall:
    """One call the fake received: the messages (copied) and the keyword arguments."""

    method: str  # "complete" or "stream"
    messages: list[Message]
    kwargs: dict[str, Any]


@dataclass
class FakeChatModel:
    """Replies with `replies` in order (the last one repeats); `fail=True` -> ModelUnavailable."""

    replies: list[str] | None = None
    fail: bool = False
    prompt_tokens: int = 10
    completion_tokens: int = 5
    fail_reason: str = "error"
    calls: list[ChatCall] = field(default_factory=list)
    pings: int = 0

    def _next_reply(self) -> str:
        replies = self.replies or ["OK"]
        index = min(len(self.calls) - 1, len(replies) - 1)
        return replies[index]

    def _record(self, method: str, messages: Sequence[Message], kwargs: dict[str, Any]) -> None:
        self.calls.append(ChatCall(method, list(messages), dict(kwargs)))

    @property
    def last_messages(self) -> list[Message]:
        return self.calls[-1].messages if self.calls else []

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        self._record("complete", messages, {"temperature": temperature, "max_tokens": max_tokens})
        if self.fail:
            raise ModelUnavailable(self.fail_reason)
        return Completion(
            text=self._next_reply(),
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            latency_ms=1.0,
        )

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> ChatStream:
        """Like the real adapter: nothing happens until the first `anext`, and `.completion`
        is set once the stream has ended."""
        kwargs = {"temperature": temperature, "max_tokens": max_tokens}
        return ChatStream(lambda out: self._pieces(messages, kwargs, out))

    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        if self.fail:
            raise ModelUnavailable(self.fail_reason)
        reply = self._next_reply()
        # Word-sized pieces, whitespace kept, so "".join(pieces) == reply.
        piece = ""
        for char in reply:
            piece += char
            if char == " ":
                yield piece
                piece = ""
        if piece:
            yield piece
        out.completion = Completion(reply, self.prompt_tokens, self.completion_tokens, 1.0)

    async def ping(self) -> None:
        self.pings += 1
        if self.fail:
            raise ModelUnavailable(self.fail_reason)
