"""The answer gate's checks, one table each, with the near misses that must pass."""

from __future__ import annotations

import pytest

from pipelines.answer_gate import (
    DROPPED_PLACEHOLDER,
    EMPTY,
    NO_CITATION,
    PERSONAL_DATA,
    PROMPT_ECHO,
    REASONS,
    REPETITIVE,
    TOO_LONG,
    UNKNOWN_CITATION,
    UNKNOWN_PLACEHOLDER,
    UNSUPPORTED,
    GateInput,
    check_answer,
)
from pipelines.answer_text import citations, personal_values, placeholders

PASSAGES = (
    "A landlord must return the security deposit within one month after the tenancy ends. "
    "Deductions are allowed only for unpaid rent and damage.",
    "A First Information Report is a written document prepared by the police. You can file it "
    "at any police station, and the police must give you a free copy. Call 112 in an emergency.",
    "Under Section 4111 1111 1111 1111 of the code, complaints go to the district commission. "
    "Write to help@nalsa.gov.in for free legal aid.",
)
QUESTION = "My landlord <PERSON_2> kept my deposit. I am <PERSON_1>, mail me at <EMAIL_ADDRESS_1>."
SYSTEM = (
    "You are Warden, an assistant that answers only from the numbered passages the user "
    "provides. Cite passages by their number in square brackets, like [1] or [2]."
)
GOOD = "The landlord must return the security deposit within one month [1]."


def verdict(answer: str, question: str = QUESTION, **changes: object) -> str | None:
    given = GateInput(answer, PASSAGES, question, sent=(SYSTEM,), system_prompt=SYSTEM)
    for name, value in changes.items():
        object.__setattr__(given, name, value)
    return check_answer(given).reason


def test_reason_codes_are_stable() -> None:
    assert REASONS == (
        "empty", "too_long", "repetitive", "prompt_echo", "unknown_citation", "no_citation",
        "unknown_placeholder", "dropped_placeholder", "personal_data", "unsupported",
    )  # fmt: skip


def test_a_grounded_cited_answer_passes() -> None:
    assert verdict(GOOD) is None
    assert verdict(f"{GOOD} Deductions are allowed only for unpaid rent and damage [1].") is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("See [1] and [3].", [1, 3]),
        ("Both say so [1, 2].", [1, 2]),
        ("Stacked [1][2].", [1, 2]),
        ("A link https://example.org/page[1] is not a citation.", []),
        ("A wiki link www.example.org/a[2]b either.", []),
        ("A list [a] or a year [2024x] is not one.", []),
    ],
)
def test_citations(text: str, found: list[int]) -> None:
    assert citations(text) == found


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (GOOD.replace("[1]", "[4]"), UNKNOWN_CITATION),
        (GOOD.replace("[1]", "[0]"), UNKNOWN_CITATION),
        (GOOD.replace("[1]", "[1, 7]"), UNKNOWN_CITATION),
        (GOOD.replace("[1]", ""), NO_CITATION),
        (GOOD + " Source: https://example.org/deposit[4]", None),  # inside a URL: not cited
        (GOOD.replace("[1]", "") + " https://example.org/x[1]", NO_CITATION),
        ("I could not find this in the knowledge base.", None),  # says so: claims nothing
    ],
)
def test_citation_checks(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


def test_the_unknown_citation_feedback_names_what_exists() -> None:
    given = GateInput(GOOD.replace("[1]", "[4]"), PASSAGES, QUESTION)
    assert check_answer(given).feedback.startswith("You cited [4]; only passages 1-3 exist.")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (f"{GOOD} Dear <PERSON_1>, ask <PERSON_2> for it.", None),
        (f"{GOOD} Write to <EMAIL_ADDRESS_1>.", None),
        (f"{GOOD} Ask <PERSON_3> for it.", UNKNOWN_PLACEHOLDER),  # made up
        (f"{GOOD} Mail <EMAIL_ADDRESS> today.", UNKNOWN_PLACEHOLDER),  # no number: made up
        (f"{GOOD} Call < PHONE_NUMBER_1 > today.", UNKNOWN_PLACEHOLDER),
        (f"{GOOD} Dear < PERSON_1 >, that is all.", None),  # spaced: still the user's
        (f"{GOOD} Use <b>bold</b> tags.", None),  # not a placeholder
    ],
)
def test_placeholder_checks(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


def test_a_draft_must_keep_the_placeholders_the_question_gives() -> None:
    ask = "Draft a letter to <PERSON_2> asking for my deposit back."
    letter = "Dear <PERSON_2>, return my security deposit within one month [1]."
    assert verdict(letter, ask) is None
    assert verdict(letter.replace("<PERSON_2>", "Sir"), ask) == DROPPED_PLACEHOLDER
    # a plain question does not need its placeholders repeated
    assert verdict(GOOD, "Can <PERSON_2> keep my deposit?") is None


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (f"{GOOD} Email ravi.k@gmail.com for help.", PERSONAL_DATA),
        (f"{GOOD} Call him on +91 98765 43210.", PERSONAL_DATA),
        (f"{GOOD} Pay with card 4539 1488 0343 6467.", PERSONAL_DATA),  # passes Luhn
        (f"{GOOD} His PAN is ABCPK1234F.", PERSONAL_DATA),
        (f"{GOOD} His Aadhaar is 2345 6789 0123.", PERSONAL_DATA),
        (f"{GOOD} Server 192.168.10.20 logs it.", PERSONAL_DATA),
        (f"{GOOD} Pay to ravi@okaxis now.", PERSONAL_DATA),
        # near misses: a section number shaped like a card, a passage's own values
        (f"{GOOD} See Section 4111 1111 1111 1111 of the code [3].", None),
        (f"{GOOD} Write to help@nalsa.gov.in [3].", None),
        (f"{GOOD} Call 112 in an emergency [2].", None),
        (f"{GOOD} It was decided in 2013 and 2024.", None),
        ("Mail me the deposit, <EMAIL_ADDRESS_1>, within one month [1].", None),
    ],
)
def test_personal_data_checks(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


def test_the_users_own_unmasked_value_is_allowed() -> None:
    question = "My number is 98765 43210. When do I get my deposit?"
    assert verdict(f"{GOOD} We will call 98765 43210.", question) is None


def test_a_section_number_is_not_a_card() -> None:
    assert [e for e, _ in personal_values("under section 4111 1111 1111 1111")] == []
    assert [e for e, _ in personal_values("card 4111 1111 1111 1111")] == ["CREDIT_CARD"]
    # 16 digits that fail Luhn are no card, and no Aadhaar hides in their last twelve
    assert list(personal_values("ref 1234 5678 9012 3456")) == []


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("", EMPTY),
        ("   \n ", EMPTY),
        (GOOD + " " + "More words here. " * 400, TOO_LONG),
        (" ".join([GOOD] * 3), REPETITIVE),
        (
            GOOD + " the deposit the deposit the deposit the deposit the deposit the deposit",
            REPETITIVE,
        ),
        # a list repeats its opening words, not whole runs
        ("- within one month [1]\n- only for unpaid rent [1]\n- only for damage [1]", None),
        (GOOD + " and and and and and and and and and and and and and and and and", REPETITIVE),
    ],
)
def test_shape_checks(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


def test_the_length_cap_is_configurable() -> None:
    assert verdict(GOOD, max_chars=20) == TOO_LONG


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (f"{GOOD} I am Warden, an assistant that answers only from the numbered passages.",
         PROMPT_ECHO),
        (f"{GOOD} Cite passages by their number in square brackets, like [1] or [2].",
         PROMPT_ECHO),
        (f"{GOOD} I answer from the passages [1].", None),  # a few shared words are no echo
    ],
)  # fmt: skip
def test_prompt_echo(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("The police must give you a free copy of the report [2].", None),
        ("The landlord must pay triple damages and interest to the tenant [1].", UNSUPPORTED),
        # supported, but by passage 2, not the one it cites
        ("The police must give you a free copy of the report [1].", UNSUPPORTED),
        # a sentence without its own citation is read against the answer's citations
        (f"{GOOD} Deductions are allowed only for unpaid rent and damage.", None),
        ("Yes [1]. I hope this helps.", None),  # short sentences are not checked
    ],
)
def test_support_checks(answer: str, reason: str | None) -> None:
    assert verdict(answer) == reason


def test_placeholders_are_read_in_the_vault_form() -> None:
    assert placeholders("<PERSON_1> < EMAIL_ADDRESS_2 > <IN_PAN>") == [
        "PERSON_1", "EMAIL_ADDRESS_2", "IN_PAN",
    ]  # fmt: skip
