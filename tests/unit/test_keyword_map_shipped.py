"""The shipped keyword map (service/config/keywords.yaml) read through the spelling fold."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipelines.safety.keyword_fold import fold_text, foldable
from pipelines.safety.keywords import expand_keywords
from service.pipeline_config import DEFAULT_CONFIG_DIR, keyword_map, read_unique_yaml

SHIPPED = keyword_map(yaml.safe_load(Path(DEFAULT_CONFIG_DIR, "keywords.yaml").read_text("utf-8")))


def test_keys_that_fold_together_mean_the_same() -> None:
    """Two entries the fold joins would race: the first one wins and the other is dead."""
    meaning: dict[str, set[str]] = {}
    for key, expansion in SHIPPED.items():
        if foldable(key):
            meaning.setdefault(fold_text(key), set()).add(expansion)
    assert {form: found for form, found in meaning.items() if len(found) > 1} == {}


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("jamaanat kab milegi", "bail"),
        ("vakeel chahiye", "lawyer"),
        ("thaane wale nahi sun rahe", "police station"),
        ("थानों में", "police station"),
        ("किराये का मकान", "rent"),
        ("gujaara bhatta", "maintenance"),
        ("talaaq ke baad", "divorce"),
        ("फेसबुक पर फर्जी आईडी", "Facebook"),
        ("क्या बेल मिलेगी", "bail"),
        ("बेल नहीं मिली तो क्या करें", "bail"),
        ("मुझे बेल कब मिलेगी", "bail"),
        ("चार्जशीट नहीं आई तो बेल का हक", "right to bail"),
        ("malik ne bijli kaat di", "landlord"),
        ("beta ghar se nikal raha hai", "thrown out of the house"),
        # everyday English for the documents' terms
        ("my husband beats me when he drinks", "physical abuse"),
        ("the police are not writing my complaint", "refuse to register FIR"),
        ("they arrested my brother last night", "bail"),
        ("I cannot afford a lawyer", "free legal aid"),
        ("he says he will post my photos online", "without consent"),
    ],
)
def test_common_spellings_find_their_entry(text: str, wanted: str) -> None:
    assert wanted in expand_keywords(text, SHIPPED).removeprefix(text)


@pytest.mark.parametrize(
    "text",
    [
        "I take a pill for fever",
        "The fire was put out",
        "Is SaaS cheaper than a server?",
        "how to beat the summer heat",
        "which song was a hit in 1990",
        "who stole the show at the oscars this year",
        "how long was nelson mandela in jail",
        "what is a defective gene",
        "how do i vacate a cell in excel",
        "the team was thrown out of the tournament",
        "बेल का शरबत कैसे बनाते हैं",  # the bael fruit
        "बेल के पत्ते पूजा में",
        "बेल कैसे लगाएं",  # a vine
        "मनी प्लांट की बेल कैसे बढ़ाएं",
        "बेल के लिए खाद",
    ],
)
def test_english_words_do_not_pick_up_hinglish_entries(text: str) -> None:
    assert expand_keywords(text, SHIPPED) == text


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: 1\na: 2\n", 2),
        ("abuse:\n  en:\n    patterns:\n      rule: 'x'\n      rule: 'y'\n", 5),
    ],
)
def test_a_key_given_twice_is_refused_with_its_line(text: str, line: int) -> None:
    with pytest.raises(ValueError, match=f"line {line}: the key"):
        read_unique_yaml(text)


def test_merge_keys_and_unhashable_keys_keep_their_yaml_meaning() -> None:
    text = "base: &b {a: 1, b: 2}\nother:\n  <<: *b\n  b: 3\n"
    assert read_unique_yaml(text)["other"] == {"a": 1, "b": 3}  # an override, not a repeat
    with pytest.raises(yaml.YAMLError, match="unhashable"):
        read_unique_yaml("? [a, b]\n: 1\n")


def test_the_shipped_yaml_files_have_no_key_given_twice() -> None:
    for name in ("safety.yaml", "keywords.yaml"):
        assert read_unique_yaml((DEFAULT_CONFIG_DIR / name).read_text(encoding="utf-8"))
