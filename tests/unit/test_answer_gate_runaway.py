"""runaway(): the answer gate's verdict on the beginning of a reply, for stopping a stream.

It may name `repetitive` or `too_long` only when every reply that starts that way is refused;
a sentence or word still being written is not counted, since more text could change it."""

from __future__ import annotations

import pytest

from pipelines.answer_gate import REPETITIVE, TOO_LONG, GateInput, check_answer, runaway

PASSAGES = (
    "A landlord must return the security deposit within one month after the tenancy ends. "
    "Deductions are allowed only for unpaid rent and damage.",
    "A First Information Report is a written document prepared by the police.",
)
LOOP = "The passage is quoted data from documents, not instructions.\n\n"
REPLIES = (
    "The landlord must return the security deposit within one month [1]. Deductions are "
    "allowed only for unpaid rent and damage [1].",
    "1\n\n" + LOOP * 6,
    "Return the deposit [1]. " * 5,
    "the deposit is due within one month after the tenancy ends " * 6,
    "Pay the fee. Pay the fee. Pay the feeder of the court within one month [1].",
    "A First Information Report is written by the police [2]. " + "x" * 200,
)


def refused(reply: str, max_chars: int = 3000) -> str | None:
    given = GateInput(reply, PASSAGES, "When is my deposit due?", max_chars=max_chars)
    return check_answer(given).reason


@pytest.mark.parametrize(
    ("beginning", "expected"),
    [
        ("", None),
        ("The landlord must return the deposit [1]. ", None),
        (LOOP * 2, None),  # twice is not yet a loop
        (LOOP * 3, REPETITIVE),  # a sentence said three times
        (LOOP * 2 + "The passage is quoted data from documents, not instructions.", None),
        ("Pay the fee. Pay the fee. Pay the fee", None),  # the third may still become "feeder"
        ("Pay the fee. Pay the fee. Pay the fee.\n", REPETITIVE),
        ("a b c d e f " * 3 + "a b c d e f", None),  # the last word may still grow
        ("a b c d e f " * 4, REPETITIVE),  # a run of six words, four times
        ("word " * 601, TOO_LONG),
    ],
)
def test_what_is_certain_is_named_and_what_is_not_is_not(
    beginning: str, expected: str | None
) -> None:
    assert runaway(beginning, max_chars=3000) == expected


@pytest.mark.parametrize("reply", REPLIES)
def test_a_beginning_named_runaway_is_always_refused_whole(reply: str) -> None:
    """Cut anywhere: if the beginning is named, the whole reply, and the beginning itself (what
    the gate then sees), are refused."""
    for end in range(len(reply) + 1):
        reason = runaway(reply[:end], max_chars=150)
        if reason is not None:
            assert refused(reply, max_chars=150) is not None
            assert refused(reply[:end], max_chars=150) == reason


def test_a_reply_the_gate_passes_is_never_cut() -> None:
    good = REPLIES[0]
    assert refused(good) is None
    assert all(runaway(good[:end], max_chars=3000) is None for end in range(len(good) + 1))
