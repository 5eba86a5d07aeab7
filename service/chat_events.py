"""The events of a streamed chat, in order: `Started` once, then `Token`s (a `Reset` throws
away the text shown so far), then `Done` with the whole answer, or `Failed` instead."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pipelines.outcome import ChatOutcome
from pipelines.streaming import Started, Token

__all__ = ["ChatEvent", "Done", "Failed", "Reset", "Started", "Token", "closing_events"]


@dataclass(frozen=True)
class Reset:
    """Discard the text shown so far (the model failed mid-answer); new tokens follow."""


@dataclass(frozen=True)
class Done:
    outcome: ChatOutcome


@dataclass(frozen=True)
class Failed:
    error: str = "internal_error"
    detail: str = "Something went wrong on our side."


ChatEvent = Started | Token | Reset | Done | Failed


def closing_events(shown: str, outcome: ChatOutcome) -> Iterator[ChatEvent]:
    """Whatever makes the shown text the answer (the whole answer if none streamed), then Done."""
    if outcome.response != shown:
        if shown:
            yield Reset()
        if outcome.response:
            yield Token(outcome.response)
    yield Done(outcome)
