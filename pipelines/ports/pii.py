"""The PII detector port: spans of personal data found in a text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class PiiSpan:
    start: int
    end: int
    entity_type: str  # Presidio's type name, e.g. EMAIL_ADDRESS
    score: float = 1.0


@runtime_checkable
class PiiDetector(Protocol):
    """Finds personal data in text. Masking itself is pure (pipelines.safety.placeholders)."""

    async def detect(self, text: str) -> list[PiiSpan]: ...


# ---------------------------------------------------------------- chat model


def resolve_overlaps(spans: Iterable[PiiSpan]) -> list[PiiSpan]:
    """Spans that overlap (transitively) become one span covering them all, in text order.

    It carries the type and score of the best member: highest score, then the longer, then the
    earlier. Spans that only touch stay apart. No fragment of a value is left unmasked.
    """
    merged: list[PiiSpan] = []
    group: list[PiiSpan] = []
    group_end = -1
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if group and span.start >= group_end:
            merged.append(_cover(group))
            group = []
        group.append(span)
        group_end = max(group_end, span.end) if len(group) > 1 else span.end
    if group:
        merged.append(_cover(group))
    return merged


def _cover(group: list[PiiSpan]) -> PiiSpan:
    best = max(group, key=lambda s: (s.score, s.end - s.start, -s.start))
    return PiiSpan(
        min(s.start for s in group), max(s.end for s in group), best.entity_type, best.score
    )
