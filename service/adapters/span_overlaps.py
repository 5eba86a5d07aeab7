"""Overlapping PII spans become one span, so no fragment of a value is left unmasked."""

from __future__ import annotations

from collections.abc import Iterable

from pipelines.ports import PiiSpan


def _best(group: list[PiiSpan]) -> PiiSpan:
    """The highest score wins; on a tie the longer span, then the earlier one."""
    return max(group, key=lambda s: (s.score, s.end - s.start, -s.start))


def resolve_overlaps(spans: Iterable[PiiSpan]) -> list[PiiSpan]:
    """Groups spans that overlap (transitively); each group is covered by one span.

    The merged span covers the whole group and carries the best member's type and score.
    Spans that only touch (one ends where the next starts) stay separate.
    """
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    merged: list[PiiSpan] = []
    group: list[PiiSpan] = []
    group_end = -1
    for span in ordered:
        if group and span.start >= group_end:
            merged.append(_cover(group))
            group = []
        group.append(span)
        group_end = max(group_end, span.end) if len(group) > 1 else span.end
    if group:
        merged.append(_cover(group))
    return merged


def _cover(group: list[PiiSpan]) -> PiiSpan:
    best = _best(group)
    start = min(s.start for s in group)
    end = max(s.end for s in group)
    return PiiSpan(start, end, best.entity_type, best.score)
