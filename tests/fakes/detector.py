"""FakePiiDetector: a few regexes, returning spans named like Presidio's entity types."""

from __future__ import annotations

import re

from pipelines.ports import PiiSpan

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_PATTERNS: dict[str, re.Pattern[str]] = {
    "EMAIL_ADDRESS": re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"),
    "CREDIT_CARD": re.compile(r"\b(?:\d[ -]?){12,18}\d\b"),
    "PHONE_NUMBER": re.compile(r"(?<![\w+(])(?:\+|\()?\d[\d ()-]{6,}\d\b"),
    "PERSON": re.compile(r"\b(?:Asha Rao|John Smith)\b"),
}


def _luhn_ok(candidate: str) -> bool:
    digits = [int(c) for c in candidate if c.isdigit()]
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2 == 1:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return 13 <= len(digits) <= 19 and total % 10 == 0


def _phone_ok(candidate: str) -> bool:
    digits = sum(c.isdigit() for c in candidate)
    return 8 <= digits <= 15 and not _ISO_DATE.fullmatch(candidate)


class FakePiiDetector:
    """Implements the PiiDetector port. Card numbers must pass Luhn; overlaps keep the longest."""

    def __init__(self) -> None:
        self.calls = 0

    def detect_sync(self, text: str) -> list[PiiSpan]:
        found: list[PiiSpan] = []
        for entity, pattern in _PATTERNS.items():
            for match in pattern.finditer(text):
                if entity == "CREDIT_CARD" and not _luhn_ok(match.group()):
                    continue
                if entity == "PHONE_NUMBER" and not _phone_ok(match.group()):
                    continue
                found.append(PiiSpan(match.start(), match.end(), entity, 1.0))
        kept: list[PiiSpan] = []
        # Longest first (cards before phones on equal length by pattern order).
        for span in sorted(found, key=lambda s: (-(s.end - s.start), s.start)):
            if all(span.end <= k.start or span.start >= k.end for k in kept):
                kept.append(span)
        return sorted(kept, key=lambda s: s.start)

    async def detect(self, text: str) -> list[PiiSpan]:
        self.calls += 1
        return self.detect_sync(text)
