"""Masking one request: the question, its history window, the user's name and the context
all go through ONE vault, so the same value gets the same placeholder everywhere."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipelines.ports import Message, PiiDetector, PiiSpan
from pipelines.safety.placeholders import PlaceholderVault, drop_allowlisted

PERSON = "PERSON"
_PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*)_\d+>")


def name_spans(text: str, user_name: str) -> list[PiiSpan]:
    """Where the user's full name occurs (any case, any spacing, whole words).

    Single name parts are left to the detector: a first name such as "May" or "Will" is
    also an ordinary word, and masking it everywhere would garble questions and passages.
    """
    words = user_name.split()
    if not words:
        return []
    pattern = re.compile(
        r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE
    )
    return [PiiSpan(m.start(), m.end(), PERSON) for m in pattern.finditer(text)]


async def spans_to_mask(
    text: str, detector: PiiDetector, *, user_name: str, allowlist: frozenset[str]
) -> list[PiiSpan]:
    """Detected personal data minus allowlisted corpus terms, plus the user's own name."""
    detected = drop_allowlisted(text, await detector.detect(text), allowlist)
    return [*detected, *name_spans(text, user_name)]


def name_placeholder(vault: PlaceholderVault, user_name: str) -> str:
    """The placeholder standing for the user's name in this vault ("the user" if nameless)."""
    name = " ".join(user_name.split())
    if not name:
        return "the user"
    return vault.mask(name, [PiiSpan(0, len(name), PERSON)])


def placeholder_types(masked: str) -> list[str]:
    """Entity types of the placeholders in a masked text, in order of first appearance."""
    return list(dict.fromkeys(match.group(1) for match in _PLACEHOLDER.finditer(masked)))


@dataclass(frozen=True)
class MaskedRequest:
    vault: PlaceholderVault
    safe_query: str
    history: list[Message]
    name_placeholder: str
    entity_types: list[str]  # in the question, in order of first appearance


async def mask_request(
    question: str,
    history: Sequence[Message],
    *,
    user_name: str,
    detector: PiiDetector,
    allowlist: frozenset[str],
) -> MaskedRequest:
    """Masks the question and the history window together (values found in one are masked
    in all). The name is registered first, so the user is `<PERSON_1>` wherever they appear."""
    vault = PlaceholderVault()
    placeholder = name_placeholder(vault, user_name)
    texts = [question, *(message.content for message in history)]
    found = await asyncio.gather(
        *(spans_to_mask(t, detector, user_name=user_name, allowlist=allowlist) for t in texts)
    )
    safe_query, *masked = vault.mask_many(list(zip(texts, found, strict=True)))
    masked_history = [Message(m.role, text) for m, text in zip(history, masked, strict=True)]
    return MaskedRequest(
        vault, safe_query, masked_history, placeholder, placeholder_types(safe_query)
    )


async def mask_passages(
    passages: Sequence[str],
    personal: Sequence[bool],
    vault: PlaceholderVault,
    *,
    detector: PiiDetector,
    user_name: str,
    allowlist: frozenset[str],
) -> list[str]:
    """Context for the model: the user's own uploads are scanned for personal data; every
    passage gets the request's known values (the question's, the history's, the name) masked."""
    items: list[tuple[str, list[PiiSpan]]] = []
    for text, is_personal in zip(passages, personal, strict=True):
        spans = (
            await spans_to_mask(text, detector, user_name=user_name, allowlist=allowlist)
            if is_personal
            else name_spans(text, user_name)
        )
        items.append((text, spans))
    return vault.mask_many(items)
