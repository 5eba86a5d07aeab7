"""The spelling fold of keyword matching: many spellings of a Hinglish or Hindi word, one form."""

from __future__ import annotations

import pytest

from pipelines.safety.keyword_fold import fold_text, fold_word, foldable

SAME = [
    ("zamanat", "jamaanat", "zamaanat", "Zamanat"),  # z -> j, aa -> a, case
    ("vakil", "wakil", "vakeel", "wakeel"),  # w -> v, ee -> i
    ("kanoon", "kanun", "qanoon"),  # oo -> u, q -> k
    ("talaq", "talak", "talaaq"),
    ("guzara", "gujara", "gujaara"),
    ("bhatta", "bhata"),  # doubled letters
    ("phone", "fone"),  # ph -> f
    ("sulah", "sula"),  # h after a final vowel
    ("जमानत", "ज़मानत"),  # nukta
    ("गिरफ्तारी", "गिरफ़्तारी"),  # precomposed nukta letter is decomposed first
    ("बुजुर्ग", "बुज़ुर्ग"),
    ("थाना", "थाने", "थानों"),  # the inflecting last vowel
    ("बच्चा", "बच्चे", "बच्चों"),
    ("पूछना", "पुछना"),  # long u as short
]

DIFFERENT = [
    ("पति", "पता"),  # husband, address: an i-vowel ending is not an inflection dropped
    ("fir", "fire"),
    ("yah", "ya"),  # a final h is dropped only after two letters and a vowel
    ("ne", "न"),
]


@pytest.mark.parametrize("spellings", SAME, ids=[s[0] for s in SAME])
def test_spellings_of_one_word_fold_together(spellings: tuple[str, ...]) -> None:
    assert len({fold_word(word) for word in spellings}) == 1


@pytest.mark.parametrize(("one", "other"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_different_words_stay_apart(one: str, other: str) -> None:
    assert fold_word(one) != fold_word(other)


def test_a_short_word_keeps_a_letter() -> None:
    assert fold_word("aa") == "a"
    assert fold_word("ने") == "ने"  # one consonant: its vowel stays


def test_fold_text_keeps_what_is_between_words() -> None:
    assert fold_text("Zamaanat, kaise? भरण-पोषण!") == "jamanat, kaise? भरण-पोषण!"


def test_fold_text_keeps_the_number_of_words() -> None:
    text = "thaane  me shikaayat, थानों में e-FIR"
    assert len(fold_text(text).split()) == len(text.split())


@pytest.mark.parametrize(
    ("key", "folds"),
    [("fir", False), ("rti", False), ("pil", False), ("sp", False), ("upi", False),
     ("dlsa", True), ("zamanat", True), ("lok adalat", True), ("थाना", True), ("दहेज", True)],
)  # fmt: skip
def test_only_keys_long_enough_to_be_words_are_folded(key: str, folds: bool) -> None:
    assert foldable(key) is folds
