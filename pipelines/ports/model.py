"""The chat-model port: messages in, a completion (or a stream of pieces) out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0


class ModelUnavailable(Exception):
    """The chat model failed, timed out, or its circuit breaker is open."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # short machine-readable code, e.g. "breaker_open", "timeout"


@runtime_checkable
class ChatModel(Protocol):
    """An OpenAI-compatible chat model. Raises ModelUnavailable, never vendor errors."""

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion: ...

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> AsyncIterator[str]: ...

    async def ping(self) -> None: ...


# ---------------------------------------------------------------- stores
