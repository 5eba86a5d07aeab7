"""The bench's "direct insult" subset: Kaggle comments addressed to the reader."""

from __future__ import annotations

import pytest

from bench.datasets.comments import addresses_reader

ADDRESSED = ["You idiot", "YOUR mom", "you're wrong", "you\u2019re wrong", "u r dumb",
             "ur a joke", "go hug yourself", "you'll see", "Thank you."]  # fmt: skip
NOT_ADDRESSED = ["he is a moron", "the U.S. is big", "youth club", "bayou", "yours truly",
                 "U.S.A. today", "they said so"]  # fmt: skip


@pytest.mark.parametrize("text", ADDRESSED, ids=ADDRESSED)
def test_second_person_word_makes_it_direct(text: str) -> None:
    assert addresses_reader(text)


@pytest.mark.parametrize("text", NOT_ADDRESSED, ids=NOT_ADDRESSED)
def test_no_second_person_word_is_not_direct(text: str) -> None:
    assert not addresses_reader(text)
