"""PlaceholderVault: request-scoped masking of personal data, and its reversal for the user.

One vault serves one request: the history window and the question are masked with it, so the
same value (casefolded, whitespace collapsed) gets the same `<ENTITY_TYPE_N>` everywhere and
different values get different numbers. A value the detector found once is also masked where
it recurs in any text masked afterwards, even if the detector missed it there; `mask_many`
registers every text's spans first, so it works in both directions. The mapping lives only in
this object: `restore` gives the user their own values back, and nothing else may.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipelines.ports import PiiSpan, resolve_overlaps
from pipelines.safety.spans import clip, drop_allowlisted, normalise_value

__all__ = ["PlaceholderVault", "drop_allowlisted", "resolve_overlaps", "without_placeholders"]

MIN_PROPAGATED_CHARS = 3  # shorter values are masked only where the detector found them
_PLACEHOLDER = re.compile(r"<\s*([A-Za-z][A-Za-z0-9_]*_\d+)\s*>")


def without_placeholders(text: str) -> str:
    """The text with its `<TYPE_N>` placeholders removed, for the embedder.

    A placeholder carries no meaning for retrieval but its type words pull the query toward
    unrelated passages (measured: -7.2 points of hit@3 on the Python FAQ with a name and an
    e-mail appended; -0.6 with them removed; bench/results-retrieval-masking.md).
    """
    return " ".join(_PLACEHOLDER.sub(" ", text).split())


class PlaceholderVault:
    def __init__(self) -> None:
        self._placeholder_of: dict[str, str] = {}  # normalised value -> placeholder
        self._value_of: dict[str, str] = {}  # placeholder -> the user's value, as first seen
        self._last_number: dict[str, int] = {}  # type label -> highest number used
        self._types: set[str] = set()
        self._known: re.Pattern[str] | None = None

    def mask(self, text: str, spans: Sequence[PiiSpan]) -> str:
        return self.mask_many([(text, spans)])[0]

    def mask_many(self, items: Sequence[tuple[str, Sequence[PiiSpan]]]) -> list[str]:
        """Masks several texts of one request; values found in any are masked in all."""
        resolved = [resolve_overlaps(clip(spans, len(text))) for text, spans in items]
        for (text, _), spans in zip(items, resolved, strict=True):
            for span in spans:
                self._register(text[span.start : span.end], span.entity_type)
        return [
            self._replace(text, spans) for (text, _), spans in zip(items, resolved, strict=True)
        ]

    def restore(self, text: str) -> str:
        """Puts the user's values back; placeholders this vault did not make stay as they are."""

        def value(match: re.Match[str]) -> str:
            return self._value_of.get(match.group(1).upper(), match.group(0))

        return _PLACEHOLDER.sub(value, text) if self._value_of else text

    @property
    def entity_types(self) -> list[str]:
        return sorted(self._types)

    @property
    def found(self) -> bool:
        return bool(self._types)

    def _register(self, value: str, entity_type: str) -> str:
        key = normalise_value(value)
        placeholder = self._placeholder_of.get(key)
        if placeholder is None:
            label = _label(entity_type)
            number = self._last_number.get(label, 0) + 1
            self._last_number[label] = number
            placeholder = f"<{label}_{number}>"
            self._placeholder_of[key] = placeholder
            self._value_of[placeholder[1:-1]] = value
            self._known = None
        return placeholder

    def _replace(self, text: str, spans: list[PiiSpan]) -> str:
        spans = resolve_overlaps(spans + self._recurring(text, spans))
        pieces: list[str] = []
        cursor = 0
        for span in spans:
            placeholder = self._register(text[span.start : span.end], span.entity_type)
            self._types.add(placeholder[1:-1].rsplit("_", 1)[0])
            pieces += [text[cursor : span.start], placeholder]
            cursor = span.end
        return "".join(pieces) + text[cursor:]

    def _recurring(self, text: str, spans: list[PiiSpan]) -> list[PiiSpan]:
        """Known values the detector did not mark in this text (whole words, any case)."""
        if self._known is None:
            values = [v for v in self._placeholder_of if len(v) >= MIN_PROPAGATED_CHARS]
            if not values:
                return []
            body = "|".join(_flexible(v) for v in sorted(values, key=len, reverse=True))
            self._known = re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE)
        found: list[PiiSpan] = []
        for match in self._known.finditer(text):
            if not any(s.start < match.end() and match.start() < s.end for s in spans):
                placeholder = self._placeholder_of[normalise_value(match.group(0))]
                label = placeholder[1:-1].rsplit("_", 1)[0]
                found.append(PiiSpan(match.start(), match.end(), label, 0.0))
        return found


def _label(entity_type: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", entity_type.upper()).strip("_") or "PII"


def _flexible(value: str) -> str:
    return r"\s+".join(re.escape(word) for word in value.split())
