"""Keyword expansion: appended after the user's words, whole words only, never replacing them."""

from __future__ import annotations

import pytest

from pipelines.safety.keywords import expand_keywords

MAP = {
    "fir": "First Information Report",
    "FIR copy": "certified copy of the First Information Report",
    "pil": "Public Interest Litigation",
    "rti": "Right to Information",
    "right to information": "RTI Act 2005",
    "c++": "C plus plus",
    "ipc": "Indian Penal Code",
    "section 420": "cheating under the Indian Penal Code",
}

CASES = [
    ("how do I file an FIR?", "how do I file an FIR? (First Information Report)"),
    ("fir", "fir (First Information Report)"),
    ("Fir trees in the garden", "Fir trees in the garden (First Information Report)"),
    ("a first information report, i.e. FIR", "a first information report, i.e. FIR"),  # present
    ("firm and affirm", "firm and affirm"),  # no substring matches
    ("where is my FIR   copy",
     "where is my FIR   copy (certified copy of the First Information Report)"),
    ("PIL or RTI?", "PIL or RTI? (Public Interest Litigation; Right to Information)"),
    ("RTI, then rti again", "RTI, then rti again (Right to Information)"),  # deduplicated
    ("file an RTI under the right to information act",
     "file an RTI under the right to information act (RTI Act 2005)"),
    ("is c++ allowed", "is c++ allowed (C plus plus)"),
    ("IPC section 420",
     "IPC section 420 (Indian Penal Code; cheating under the Indian Penal Code)"),
    ("nothing to expand here", "nothing to expand here"),
    ("<PERSON_1> filed an fir", "<PERSON_1> filed an fir (First Information Report)"),
    ("", ""),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expanded"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_expand_keywords(text: str, expanded: str) -> None:
    assert expand_keywords(text, MAP) == expanded


def test_the_users_words_come_first_unchanged() -> None:
    text = "How long does an FIR take?"
    assert expand_keywords(text, MAP).startswith(text)


def test_empty_map_changes_nothing() -> None:
    assert expand_keywords("fir", {}) == "fir"


def test_a_changed_map_is_honoured() -> None:
    assert expand_keywords("fir", {"fir": "A"}) == "fir (A)"
    assert expand_keywords("fir", {"fir": "B"}) == "fir (B)"


HINGLISH = {
    "fir": "First Information Report",
    "pil": "Public Interest Litigation",
    "rti": "Right to Information",
    "zamanat": "bail",
    "agrim zamanat": "anticipatory bail",
    "thana": "police station",
    "थाना": "police station",
    "जमानत": "bail",
    "makan malik": "landlord",
}

FOLDED = [
    ("jamaanat kaise milegi", "bail"),  # z -> j, aa -> a
    ("ZAMAANAT", "bail"),
    ("agrim jamanat lena hai", "anticipatory bail"),  # the longer key wins, folded too
    ("thaane gaye the", ""),  # "thaane" folds to "thane", not to the key "thana"
    ("thaana nahi gaye", "police station"),
    ("थाने में गए", "police station"),  # the inflected form
    ("ज़मानत मिलेगी", "bail"),  # nukta
    ("makaan maalik ne nikala", "landlord"),  # a multi-word key, each word folded
    ("FIR kaise likhaye", "First Information Report"),  # an acronym as written
    ("firr", ""),  # acronyms are not folded
    ("the pill I take", ""),  # "pill" folds to "pil": short keys match only as written
    ("pils and rtis", ""),
    ("fire at the thana", "police station"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expansion"), FOLDED, ids=[c[0] for c in FOLDED])
def test_spelling_variants_find_one_entry(text: str, expansion: str) -> None:
    expected = f"{text} ({expansion})" if expansion else text
    assert expand_keywords(text, HINGLISH) == expected


def test_overlapping_matches_keep_the_longer_key_only() -> None:
    # the exact pass finds "zamanat" inside the span of the folded "agrim jamanat"
    assert expand_keywords("aggrim zamanat", HINGLISH) == "aggrim zamanat (anticipatory bail)"


@pytest.mark.parametrize(
    ("text", "expansion"),
    [("ब्रिटेन में पढ़ाई", ""), ("रिट याचिका", "writ"), ("जमानती अपराध", "")],
)
def test_devanagari_vowel_signs_and_virama_are_inside_words(text: str, expansion: str) -> None:
    keys = {"रिट": "writ", "जमानत": "bail"}
    assert expand_keywords(text, keys) == (f"{text} ({expansion})" if expansion else text)
