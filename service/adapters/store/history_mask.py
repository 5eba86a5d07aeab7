"""Masking a chat turn for storage, and putting it back exactly.

Each stored message keeps its text with the personal values replaced by `<TYPE_n>`
placeholders, and the values themselves in a separate map (sealed by history_cipher).
`restore(mask_turn(...))` gives back the original text byte for byte: each distinct value gets
its own placeholder, and a placeholder is never one that already occurs in the text. A value
found in one message of the turn is also masked where it recurs in the other (the answer
quotes the question's e-mail even where the detector would miss it)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipelines.ports import PiiSpan, resolve_overlaps

MIN_RECURRING_CHARS = 4  # shorter values are masked only where the detector found them
_PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*_\d+)>")


@dataclass(frozen=True)
class MaskedText:
    text: str  # with placeholders
    values: dict[str, str] = field(default_factory=dict)  # "TYPE_n" -> the exact value


def _label(entity_type: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", entity_type.upper()).strip("_") or "PII"


def _recurring(text: str, values: dict[str, str], spans: list[PiiSpan]) -> list[PiiSpan]:
    """Where a value found anywhere in the turn recurs in `text` outside its own spans."""
    found: list[PiiSpan] = []
    for value, label in values.items():
        if len(value) < MIN_RECURRING_CHARS:
            continue
        for match in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text):
            if not any(s.start < match.end() and match.start() < s.end for s in spans):
                found.append(PiiSpan(match.start(), match.end(), label, 0.0))
    return found


def _mask_one(text: str, spans: list[PiiSpan]) -> MaskedText:
    numbers: dict[str, int] = {}
    placeholder_of: dict[str, str] = {}
    values: dict[str, str] = {}
    pieces: list[str] = []
    cursor = 0
    for span in spans:
        value = text[span.start : span.end]
        name = placeholder_of.get(value)
        if name is None:
            label = _label(span.entity_type)
            number = numbers.get(label, 0)
            while True:  # never a placeholder the text already holds
                number += 1
                name = f"{label}_{number}"
                if f"<{name}>" not in text:
                    break
            numbers[label] = number
            placeholder_of[value], values[name] = name, value
        pieces += [text[cursor : span.start], f"<{name}>"]
        cursor = span.end
    return MaskedText("".join(pieces) + text[cursor:], values)


def mask_turn(items: Sequence[tuple[str, Sequence[PiiSpan]]]) -> list[MaskedText]:
    """Masks the messages of one turn; each message carries its own placeholder map."""
    clipped = [[s for s in spans if 0 <= s.start < s.end <= len(text)] for text, spans in items]
    known: dict[str, str] = {}
    for (text, _), spans in zip(items, clipped, strict=True):
        for span in spans:
            known.setdefault(text[span.start : span.end], span.entity_type)
    masked: list[MaskedText] = []
    for (text, _), spans in zip(items, clipped, strict=True):
        merged = resolve_overlaps([*spans, *_recurring(text, known, spans)])
        masked.append(_mask_one(text, [s for s in merged if s.end > s.start]))
    return masked


def restore(text: str, values: dict[str, str]) -> str:
    """The stored text with its values put back; unknown placeholders stay as they are."""
    if not values:
        return text
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def whole(text: str) -> MaskedText:
    """The fallback when detection failed: the whole message becomes one sealed value."""
    return MaskedText("<MESSAGE_1>", {"MESSAGE_1": text}) if text else MaskedText(text)
