"""PII span helpers: keep spans inside the text, merge overlaps, drop allowlisted terms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from pipelines.ports import PiiSpan

_EDGE_PUNCTUATION = " \t\n\"'()[]{}<>.,;:!?\u2018\u2019\u201c\u201d"


def normalise_value(value: str) -> str:
    """The identity of a value: casefolded, whitespace collapsed."""
    return " ".join(value.casefold().split())


def clip(spans: Iterable[PiiSpan], length: int) -> list[PiiSpan]:
    """Spans cut to the text's bounds; empty ones are dropped."""
    clipped = (PiiSpan(max(0, s.start), min(length, s.end), s.entity_type, s.score) for s in spans)
    return [s for s in clipped if s.start < s.end]


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


def drop_allowlisted(
    text: str, spans: Sequence[PiiSpan], allowlist: frozenset[str]
) -> list[PiiSpan]:
    """Spans whose text is an allowlisted term (case-insensitive) are not personal data."""
    if not allowlist:
        return list(spans)
    terms = _folded(allowlist)
    return [s for s in spans if not _allowlisted(text[s.start : s.end], terms)]


def _allowlisted(value: str, terms: frozenset[str]) -> bool:
    bare = normalise_value(value).strip(_EDGE_PUNCTUATION)
    for suffix in ("'s", "\u2019s"):
        if bare.endswith(suffix) and bare[: -len(suffix)] in terms:
            return True
    return bare in terms or normalise_value(value) in terms


@lru_cache(maxsize=8)
def _folded(allowlist: frozenset[str]) -> frozenset[str]:
    return frozenset(normalise_value(term).strip(_EDGE_PUNCTUATION) for term in allowlist)
