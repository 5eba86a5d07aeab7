"""PlaceholderVault and the span helpers: consistent placeholders, exact restore, allowlist."""

from __future__ import annotations

import random
import re

import pytest

from pipelines.ports import PiiSpan
from pipelines.safety.placeholders import (
    PlaceholderVault,
    drop_allowlisted,
    resolve_overlaps,
    without_placeholders,
)

S = PiiSpan


def spans_of(text: str, *values: tuple[str, str]) -> list[PiiSpan]:
    """Spans for each (value, type) at every place it occurs in text."""
    found = []
    for value, kind in values:
        found += [S(m.start(), m.end(), kind) for m in re.finditer(re.escape(value), text)]
    return found


def test_mask_and_restore_one_text() -> None:
    vault = PlaceholderVault()
    text = "I am Asha Rao, mail asha@example.com"
    masked = vault.mask(
        text, spans_of(text, ("Asha Rao", "PERSON"), ("asha@example.com", "EMAIL_ADDRESS"))
    )
    assert masked == "I am <PERSON_1>, mail <EMAIL_ADDRESS_1>"
    assert vault.restore(masked) == text
    assert vault.entity_types == ["EMAIL_ADDRESS", "PERSON"] and vault.found


def test_same_value_same_placeholder_across_history_and_question() -> None:
    vault = PlaceholderVault()
    history = "My name is Asha Rao and my landlord is John Smith."
    question = "Can ASHA  RAO sue john smith?"
    masked_history = vault.mask(
        history, spans_of(history, ("Asha Rao", "PERSON"), ("John Smith", "PERSON"))
    )
    masked_question = vault.mask(question, [S(4, 13, "PERSON"), S(18, 28, "PERSON")])
    assert masked_history == "My name is <PERSON_1> and my landlord is <PERSON_2>."
    assert masked_question == "Can <PERSON_1> sue <PERSON_2>?"
    assert (
        vault.restore("<PERSON_2> owes <PERSON_1>") == "John Smith owes Asha Rao"
    )  # first seen form


def test_different_types_are_numbered_separately() -> None:
    vault = PlaceholderVault()
    text = "a@x.io b@y.io 555-0100"
    masked = vault.mask(
        text, [S(0, 6, "EMAIL_ADDRESS"), S(7, 13, "EMAIL_ADDRESS"), S(14, 22, "PHONE_NUMBER")]
    )
    assert masked == "<EMAIL_ADDRESS_1> <EMAIL_ADDRESS_2> <PHONE_NUMBER_1>"


def test_a_known_value_is_masked_where_the_detector_missed_it() -> None:
    vault = PlaceholderVault()
    vault.mask("I am Asha Rao", [S(5, 13, "PERSON")])
    assert vault.mask("asha rao's deposit", []) == "<PERSON_1>'s deposit"
    assert vault.mask("Ashanti Rao", []) == "Ashanti Rao"  # whole words only


def test_mask_many_propagates_both_ways() -> None:
    vault = PlaceholderVault()
    masked = vault.mask_many([("Asha Rao called", []), ("who is Asha Rao?", [S(7, 15, "PERSON")])])
    assert masked == ["<PERSON_1> called", "who is <PERSON_1>?"]


def test_restore_leaves_unknown_placeholders_and_other_text_alone() -> None:
    vault = PlaceholderVault()
    vault.mask("call 555-0100", [S(5, 13, "PHONE_NUMBER")])
    answer = "Call <PHONE_NUMBER_1> or <PHONE_NUMBER_9>; <person_1> is not ours; < phone_number_1 >"
    assert (
        vault.restore(answer)
        == "Call 555-0100 or <PHONE_NUMBER_9>; <person_1> is not ours; 555-0100"
    )
    assert PlaceholderVault().restore("<PERSON_1>") == "<PERSON_1>"


def test_spans_are_clipped_merged_and_empty_ones_ignored() -> None:
    vault = PlaceholderVault()
    text = "card 4111 1111 1111 1111"
    spans = [
        S(5, 24, "CREDIT_CARD", 0.9),
        S(5, 9, "DATE_TIME", 0.3),
        S(20, 99, "US_BANK_NUMBER", 0.1),
        S(3, 3, "X"),
    ]
    assert vault.mask(text, spans) == "card <CREDIT_CARD_1>"
    assert vault.entity_types == ["CREDIT_CARD"]


def test_nothing_found() -> None:
    vault = PlaceholderVault()
    assert vault.mask("what is bail?", []) == "what is bail?"
    assert not vault.found and vault.entity_types == []


def test_entity_type_labels_are_safe_placeholders() -> None:
    vault = PlaceholderVault()
    assert vault.mask("x", [S(0, 1, "in-aadhaar number")]) == "<IN_AADHAAR_NUMBER_1>"
    assert vault.mask("y", [S(0, 1, "")]) == "<PII_1>"


OVERLAPS = [
    ("empty", [], []),
    ("disjoint kept in order", [S(10, 12, "B"), S(0, 5, "A")], [S(0, 5, "A"), S(10, 12, "B")]),
    ("touching stay apart", [S(0, 5, "A"), S(5, 9, "B")], [S(0, 5, "A"), S(5, 9, "B")]),
    ("same span: higher score wins",
     [S(0, 11, "PHONE_NUMBER", 0.4), S(0, 11, "US_SSN", 0.5)], [S(0, 11, "US_SSN", 0.5)]),
    ("nested: covers the longer, type of the higher score",
     [S(0, 20, "PHONE_NUMBER", 0.4), S(4, 16, "IN_AADHAAR", 1.0)], [S(0, 20, "IN_AADHAAR", 1.0)]),
    ("equal score: the longer wins",
     [S(2, 6, "A", 0.5), S(0, 10, "B", 0.5)], [S(0, 10, "B", 0.5)]),
    ("chained overlaps merge",
     [S(0, 4, "A", 0.3), S(3, 8, "B", 0.9), S(7, 12, "C", 0.5), S(20, 22, "D", 0.1)],
     [S(0, 12, "B", 0.9), S(20, 22, "D", 0.1)]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("spans", "expected"), [c[1:] for c in OVERLAPS], ids=[c[0] for c in OVERLAPS]
)
def test_resolve_overlaps(spans: list[PiiSpan], expected: list[PiiSpan]) -> None:
    assert resolve_overlaps(spans) == expected


ALLOWLIST = frozenset({"Mahatma Gandhi", "LEGAL AID HELPLINE", "1800-000-111"})

ALLOWLIST_CASES = [
    ("Mahatma Gandhi", True),
    ("mahatma   gandhi", True),
    ("Mahatma Gandhi's", True),
    ("(1800-000-111)", True),
    ("legal aid helpline", True),
    ("Gandhi", False),  # a term, not a word inside it
    ("Asha Rao", False),
]


@pytest.mark.parametrize(("value", "dropped"), ALLOWLIST_CASES, ids=[v for v, _ in ALLOWLIST_CASES])
def test_drop_allowlisted(value: str, dropped: bool) -> None:
    text = f"about {value} today"
    span = S(6, 6 + len(value), "PERSON")
    assert drop_allowlisted(text, [span], ALLOWLIST) == ([] if dropped else [span])


def test_empty_allowlist_keeps_every_span() -> None:
    spans = [S(0, 4, "PERSON")]
    assert drop_allowlisted("John", spans, frozenset()) == spans


# ---- property-style: random texts built from values, seeded so every run is the same

VALUES = [
    ("Asha Rao", "PERSON"),
    ("John Smith", "PERSON"),
    ("asha@example.com", "EMAIL_ADDRESS"),
    ("+44 20 7946 0958", "PHONE_NUMBER"),
    ("4111 1111 1111 1111", "CREDIT_CARD"),
    ("DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
    ("192.168.0.1", "IP_ADDRESS"),
]
FILLER = [
    "please",
    "help",
    "with",
    "my",
    "lease",
    "and",
    "deposit",
    "the",
    "court",
    "bail",
    "?",
    ",",
]


def _random_text(rng: random.Random) -> tuple[str, list[PiiSpan], list[str]]:
    parts: list[str] = []
    spans: list[PiiSpan] = []
    used: list[str] = []
    position = 0
    for _ in range(rng.randint(1, 12)):
        if rng.random() < 0.35:
            value, kind = rng.choice(VALUES)
            value = value.upper() if rng.random() < 0.2 else value
            spans.append(S(position, position + len(value), kind))
            used.append(value)
            piece = value
        else:
            piece = rng.choice(FILLER)
        parts.append(piece)
        position += len(piece) + 1
    return " ".join(parts), spans, used


@pytest.mark.parametrize("seed", range(40))
def test_property_mask_then_restore_gives_the_users_text_back(seed: int) -> None:
    rng = random.Random(seed)
    vault = PlaceholderVault()
    texts = [_random_text(rng) for _ in range(rng.randint(1, 4))]
    masked = vault.mask_many([(text, spans) for text, spans, _ in texts])
    for (text, _, used), safe in zip(texts, masked, strict=True):
        for value in used:
            assert value.casefold() not in safe.casefold()  # nothing leaks
        assert vault.restore(safe).casefold() == text.casefold()  # first-seen form per value


@pytest.mark.parametrize("seed", range(40))
def test_property_one_value_one_placeholder(seed: int) -> None:
    rng = random.Random(1000 + seed)
    vault = PlaceholderVault()
    seen: dict[str, str] = {}
    for _ in range(rng.randint(2, 5)):
        text, spans, _ = _random_text(rng)
        masked = vault.mask(text, spans)
        placeholders = re.findall(r"<[A-Z_]+_\d+>", masked)
        values = [text[s.start : s.end] for s in spans]
        assert len(placeholders) == len(values)
        for value, placeholder in zip(values, placeholders, strict=True):
            key = " ".join(value.casefold().split())
            assert seen.setdefault(key, placeholder) == placeholder  # same value, same placeholder
    assert len(set(seen.values())) == len(seen)  # different values, different placeholders


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no placeholders here", "no placeholders here"),
        ("mail <EMAIL_ADDRESS_1> about my FIR", "mail about my FIR"),
        ("<PERSON_1> and <PERSON_2>", "and"),
        ("a < b and c > d", "a < b and c > d"),
    ],
)
def test_without_placeholders(text: str, expected: str) -> None:
    assert without_placeholders(text) == expected
