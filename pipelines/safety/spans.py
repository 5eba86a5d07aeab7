"""PII span helpers: keep spans inside the text, drop allowlisted terms (overlaps are merged by
`pipelines.ports.resolve_overlaps`, which detectors use too)."""

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
