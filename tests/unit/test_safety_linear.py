"""LinearTextModel: features, hashing, the score, and loading from its JSON mapping."""

from __future__ import annotations

import math
import zlib
from typing import Any

import pytest

from pipelines.safety.linear import (
    FORMAT,
    LinearTextModel,
    feature_names,
    hashed_features,
)

FEATURES = [
    ((), (), set()),
    (("you",), (), {"w:you"}),
    (("you fool",), (), {"w:you", "w:fool", "b:you fool"}),
    (("a a",), (), {"w:a", "b:a a"}),
    (("you", "fool"), (), {"w:you", "w:fool"}),  # no pair across a clause boundary
    (("ab",), (3,), {"w:ab", "c: ab", "c:ab "}),
    (("ab",), (2, 4), {"w:ab", "c: a", "c:ab", "c:b ", "c: ab "}),
]  # fmt: skip


@pytest.mark.parametrize(("clauses", "ngrams", "expected"), FEATURES)
def test_feature_names(
    clauses: tuple[str, ...], ngrams: tuple[int, ...], expected: set[str]
) -> None:
    assert feature_names(clauses, ngrams) == expected


def test_hashed_features_are_distinct_sorted_crc32_slots() -> None:
    slots = hashed_features(["you fool you"], 97)
    names = ("w:you", "w:fool", "b:you fool", "b:fool you")
    expected = sorted({zlib.crc32(n.encode()) % 97 for n in names})
    assert slots == expected
    assert hashed_features(["you fool you"], 97) == slots  # stable across calls and processes


def _slot(name: str, buckets: int) -> int:
    return zlib.crc32(name.encode()) % buckets


def _model(weights: dict[str, float], bias: float = 0.0, buckets: int = 2**16) -> LinearTextModel:
    return LinearTextModel("t", buckets, bias, {_slot(n, buckets): w for n, w in weights.items()})


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


SCORES = [
    # (weights by feature name, bias, words, expected logit)
    ({}, 0.0, "anything at all", 0.0),
    ({}, -2.0, "", -2.0),
    ({"w:fool": 3.0}, 0.0, "fool", 3.0),  # one feature: 3 / sqrt(1)
    ({"w:fool": 3.0}, -1.0, "you fool", -1.0 + 3.0 / math.sqrt(3)),  # 3 features present
    ({"w:fool": 2.0, "b:you fool": 2.0}, 0.0, "you fool", 4.0 / math.sqrt(3)),
    ({"w:fool": 3.0}, 0.0, "fool fool fool", 3.0 / math.sqrt(2)),  # each feature counted once
]


@pytest.mark.parametrize(("weights", "bias", "words", "logit"), SCORES)
def test_probability(weights: dict[str, float], bias: float, words: str, logit: float) -> None:
    assert _model(weights, bias).probability([words]) == pytest.approx(_sigmoid(logit))


def test_one_string_is_refused() -> None:
    with pytest.raises(TypeError):
        _model({}).probability("you fool")


def _mapping(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "name": "insult",
        "buckets": 8,
        "char_ngrams": [3],
        "bias": -0.5,
        "about": {"trained_on": "x"},
        "slots": [1, 5],
        "weights": [0.25, -1.5],
    }
    data.update(changes)
    return data


def test_mapping_round_trip() -> None:
    model = LinearTextModel.from_mapping(_mapping())
    assert model.weights == {1: 0.25, 5: -1.5}
    assert model.char_ngrams == (3,)
    assert model.bias == -0.5
    assert LinearTextModel.from_mapping(model.to_mapping()) == model
    assert model.to_mapping() == _mapping()


BAD = [
    ({"format": "other/1"}, "format"),
    ({"buckets": 0}, "buckets"),
    ({"buckets": "8"}, "buckets"),
    ({"slots": [1]}, "same length"),
    ({"weights": "0.25"}, "same length"),
    ({"slots": [1, 8]}, "below buckets"),
    ({"slots": [1, -1]}, "below buckets"),
    ({"char_ngrams": [0]}, "char_ngrams"),
]


@pytest.mark.parametrize(("changes", "message"), BAD)
def test_bad_mappings_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LinearTextModel.from_mapping(_mapping(**changes))


@pytest.mark.parametrize(
    "clauses",
    [
        ("you are a doorknob", "hello"),
        ("तुम बेवकूफ हो",),
        ("a a a",),
        (),
        ("café naïve 😂 x",),  # non-ASCII words hash by characters, not bytes
        ("tum pagal ho", "ज्ञान madad"),
    ],
)
def test_hashed_features_are_the_slots_of_the_feature_names(clauses: tuple[str, ...]) -> None:
    for ngrams in ((), (2, 3, 4), (3, 4, 5), (1, 6)):
        names = feature_names(clauses, ngrams)
        expected = sorted({zlib.crc32(n.encode()) % 4096 for n in names})
        assert hashed_features(clauses, 4096, ngrams) == expected
