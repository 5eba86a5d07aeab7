"""What may stand alone in an extractive answer: headings, labels, stubs, colons, sentence ends."""

from __future__ import annotations

import pytest

from pipelines.extractive_text import (
    as_clause,
    is_heading_line,
    is_label_stub,
    lower_first,
    split_prose,
    stands_alone,
)


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("## How to file an RTI application", True),
        ("What bail means", True),
        ("Rights and remedies", True),
        ("BAIL IN INDIA: THE BASICS", True),
        ("Eviction must follow the law", True),  # a title may hold a verb: no stop, standalone
        ("Permanent Lok Adalat (public utility services)", True),
        # near misses
        ("The police must register an FIR (Section 173 BNSS)", False),  # ends with a citation
        ("Registering an FIR is mandatory when the offence is cognizable [1]", False),
        ("1. Go to the police station.", False),
        ("Filing an FIR is free.", False),
        ("If the police still refuse:", False),  # an intro, not a title
        ("The first sentence is long enough. The second one", False),  # a sentence end inside
        ("bring the written complaint with you", False),  # a lower-case item
        (
            "contact your District Legal Services Authority (DLSA) or a lawyer, and the police"
            " station that refused to register the complaint",
            False,
        ),  # too long: a wrapped line
    ],
)
def test_heading_lines(line: str, heading: bool) -> None:
    assert is_heading_line(line) is heading


@pytest.mark.parametrize(
    ("text", "stub"),
    [
        ("RTI: Right to Information under the RTI Act, 2005.", True),
        ("CCPA: Central Consumer Protection Authority.", True),
        ("SLSA: State Legal Services Authority, the legal aid body of each state.", True),
        ("181: women helpline.", True),
        ("Articles 25 to 28: freedom of religion.", True),
        ("Note: see below.", True),
        # near misses: a definition that says something, a colon inside a sentence
        ("Zero FIR: an FIR registered at any police station, then transferred.", False),
        ("Lok Adalat: a people's court where disputes are settled by compromise.", False),
        ("Article 14: equality before the law and equal protection of the laws.", False),
        ("Under Section 154(1): the officer must write down the information.", False),
        ("Give facts: date, time and place, what happened, who was involved.", False),
        ("Filing an FIR is free and you do not need a lawyer.", False),
    ],
)
def test_label_stubs(text: str, stub: bool) -> None:
    assert is_label_stub(text) is stub


@pytest.mark.parametrize(
    ("text", "alone"),
    [
        ("If the police still refuse:", False),  # a fragment ending in a colon
        ("Steps to follow on the day:", False),
        ("Rights and remedies RTI: Right to Information", False),  # a heading glued to a stub
        ("Time limits", False),
        ("## Who can file an FIR", False),
        ("Too short a piece.", False),
        ("NCH: National Consumer Helpline, 1915.", False),
        ("The police must register an FIR (Section 173 BNSS)", True),  # ends with a citation
        ("The officer acts under Section 154(1): the FIR is then registered.", True),
        ("1. Go to the police station.", True),
        ("Go to the police station.", True),
        ("A Zero FIR can be registered at any police station.", True),
    ],
)
def test_what_stands_alone(text: str, alone: bool) -> None:
    assert stands_alone(text) is alone


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "For central government offices the fee is Rs. 10, paid by postal order. State fees "
            "vary.",
            [
                "For central government offices the fee is Rs. 10, paid by postal order.",
                "State fees vary.",
            ],
        ),
        (
            "Dr. B. R. Ambedkar chaired the Drafting Committee. It was set up in 1947.",
            ["Dr. B. R. Ambedkar chaired the Drafting Committee.", "It was set up in 1947."],
        ),
        (
            "In Lalita Kumari v. Government of Uttar Pradesh (2013) the Court held so. Then more.",
            [
                "In Lalita Kumari v. Government of Uttar Pradesh (2013) the Court held so.",
                "Then more.",
            ],
        ),
        (
            "It replaced the Code\nof 1973 (CrPC). Victims have rights!",
            ["It replaced the Code of 1973 (CrPC).", "Victims have rights!"],
        ),
        ("Use e.g. a letter, i.e. in writing.", ["Use e.g. a letter, i.e. in writing."]),
    ],
)
def test_sentence_ends_skip_abbreviations_and_initials(text: str, sentences: list[str]) -> None:
    assert split_prose(text) == sentences


@pytest.mark.parametrize(
    ("item", "clause"),
    [
        ("a woman or a child;", "a woman or a child"),
        ("a person with a disability; and", "a person with a disability"),
        ("it is final and binding on all parties;", "it is final and binding on all parties"),
        ("no appeal lies against it.", "no appeal lies against it"),
    ],
)
def test_an_item_read_after_its_intro_loses_its_closing_mark(item: str, clause: str) -> None:
    assert as_clause(item) == clause


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Send the substance in writing.", "send the substance in writing."),
        ("SP can investigate.", "SP can investigate."),
        ("I4C runs the portal.", "I4C runs the portal."),
    ],
)
def test_lower_first_keeps_acronyms(text: str, expected: str) -> None:
    assert lower_first(text) == expected
