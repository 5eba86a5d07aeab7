"""Streaming one answer: what the runner tells a listener, and restoring split placeholders.

The runner reports `Started` (route and trace id, right after classification) and then, on
the generated path only, `Token`s: pieces of the answer with the user's values already
restored. The generate node streams the model only when the run's config asks for it
(`ChatTurn.streamed`); it writes `{"token": text}` to LangGraph's custom
stream (`runtime.stream_writer`), which the runner reads with `stream_mode="custom"`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipelines.ports import ChatModel, Completion, Message
from pipelines.state import Route

MAX_PLACEHOLDER_CHARS = 64  # a longer `<...` is text, not a placeholder being written

# Every beginning of `<\s*NAME_N\s*>` (the vault's placeholder form): `<`, `< PER`,
# `<PERSON_1`, `<PERSON_1 `. Only such a tail may still become a placeholder.
_OPEN_PLACEHOLDER = re.compile(r"<\s*(?:[A-Za-z][A-Za-z0-9_]*(?:_\d+\s+)?)?")


@dataclass(frozen=True)
class Started:
    route: Route
    trace_id: str


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class Retract:
    """The text streamed so far was refused by the answer gate; a new attempt follows."""


StreamUpdate = Started | Token | Retract
Listener = Callable[[StreamUpdate], None]


def is_retract(chunk: Any) -> bool:
    """A custom-stream chunk the generate node writes before it streams a retry."""
    return isinstance(chunk, Mapping) and chunk.get("reset") is True


def token_text(chunk: Any) -> str | None:
    """The text of a custom-stream chunk written by the generate node, else None."""
    if isinstance(chunk, Mapping) and isinstance(chunk.get("token"), str):
        return str(chunk["token"])
    return None


class StreamRestorer:
    """Restores placeholders in a stream of pieces, holding back a `<...` that is not complete.

    `"".join(feed(p) for p in pieces) + flush()` equals `restore("".join(pieces))`: a cut is
    only made before the last `<`, and no placeholder spans a `<` other than its first.
    """

    def __init__(self, restore: Callable[[str], str]) -> None:
        self._restore = restore
        self._pending = ""

    def feed(self, piece: str) -> str:
        text = self._pending + piece
        cut = text.rfind("<")
        if cut >= 0 and _may_become_placeholder(text[cut:]):
            self._pending = text[cut:]
            return self._restore(text[:cut])
        self._pending = ""
        return self._restore(text)

    def flush(self) -> str:
        """What is still held back, at the end of the stream (restored if it can be)."""
        text, self._pending = self._pending, ""
        return self._restore(text)


def _ends_word(piece: str) -> bool:
    return any(char.isspace() for char in piece)


def _may_become_placeholder(tail: str) -> bool:
    return len(tail) <= MAX_PLACEHOLDER_CHARS and _OPEN_PLACEHOLDER.fullmatch(tail) is not None


async def stream_completion(
    model: ChatModel,
    messages: Sequence[Message],
    *,
    temperature: float,
    max_tokens: int,
    restorer: StreamRestorer,
    write: Callable[[Any], None],
    stop: Callable[[str], bool] | None = None,
) -> Completion:
    """Streams the model and writes `{"token": text}` (restored) as pieces arrive. Returns the
    full masked reply, with token counts when the stream reports them (`.completion`).

    `stop(reply so far)`, asked whenever a piece ends a word, may end the stream early (a
    reply that has run away): the reply is then what was read, its completion tokens the
    pieces read (a piece is about a token), its prompt tokens 0 (the usage comes last)."""
    started = time.perf_counter()
    stream = model.stream(messages, temperature=temperature, max_tokens=max_tokens)
    pieces: list[str] = []
    cut = False
    try:
        async for piece in stream:
            pieces.append(piece)
            if text := restorer.feed(piece):
                write({"token": text})
            if stop is not None and _ends_word(piece) and stop("".join(pieces)):
                cut = True
                break
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
    if text := restorer.flush():
        write({"token": text})
    reply = "".join(pieces)
    waited = (time.perf_counter() - started) * 1000
    if cut:
        return Completion(reply, 0, len(pieces), waited)
    reported: Completion | None = getattr(stream, "completion", None)  # the adapters' ChatStream
    if reported is None:
        return Completion(reply, 0, 0, waited)
    return Completion(
        reply, reported.prompt_tokens, reported.completion_tokens, reported.latency_ms or waited
    )
