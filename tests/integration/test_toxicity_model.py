"""The compiled toxicity model gives alt-profanity-check's own probabilities.

The service scores with `ProfanityModel`, compiled from the sklearn model shipped inside the
package; these compare it with the package's `predict_prob` on the same texts, so a
difference in tokenising, weighting, normalising or calibrating shows as a failed row.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from profanity_check import predict_prob
from profanity_check.profanity_check import model, vectorizer
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

from service.adapters.toxicity.profanity_model import ProfanityModel, shipped_profanity_model

TEXTS = [
    "",
    "   ",
    "?!",
    "a",  # one letter: no token
    "You are a useless idiot.",
    "YOU ARE A USELESS IDIOT",
    "idiot idiot idiot, stupid idiot",
    "what is bail and how do I apply for it",
    "My husband called me a bitch and hit me, what can I do?",
    "the and of to",  # stop words only
    "Ümlaut café naïve – résumé",
    "तुम बेवकूफ हो",
    "tu pagal hai kya bhai",
    "f*** you and your s***",
    "you_are_an_idiot 123 4567",
    "Thanks a lot, that really helped!",
    "x" * 5000,
    " ".join(["damn"] * 300),
]


@lru_cache(maxsize=1)
def compiled() -> ProfanityModel:
    return shipped_profanity_model()


def _vocabulary_texts(count: int) -> list[str]:
    """Texts drawn from the model's own words, with repeats and case changes."""
    rng = random.Random(7)
    words = sorted(vectorizer.vocabulary_)
    texts = []
    for _ in range(count):
        picked = rng.choices(words, k=rng.randint(1, 30))
        texts.append(" ".join(w.upper() if rng.random() < 0.2 else w for w in picked))
    return texts


@pytest.mark.parametrize("text", TEXTS)
def test_matches_the_package_on_edge_texts(text: str) -> None:
    assert compiled().probability(text) == pytest.approx(predict_prob([text])[0], abs=1e-9)


def test_matches_the_package_on_texts_of_its_own_words() -> None:
    texts = _vocabulary_texts(400)
    expected = predict_prob(texts)
    got = [compiled().probability(t) for t in texts]
    assert got == pytest.approx(list(expected), abs=1e-9)
    assert max(got) - min(got) > 0.5  # the texts span the scale, so the check means something


def test_ranks_an_insult_above_a_question() -> None:
    assert compiled().probability("you worthless idiot") > 0.9
    assert compiled().probability("how do I file an FIR") < 0.2


def _small_fitted(**vectorizer_options: object) -> tuple[TfidfVectorizer, CalibratedClassifierCV]:
    texts = ["you idiot", "stupid fool", "dumb idiot fool", "hello friend", "what is bail"] * 4
    labels = [1, 1, 1, 0, 0] * 4
    vec = TfidfVectorizer(**vectorizer_options)  # type: ignore[arg-type]
    clf = CalibratedClassifierCV(LinearSVC(dual=False), cv=2).fit(vec.fit_transform(texts), labels)
    return vec, clf


def test_compiles_any_fitted_model_of_the_same_shape() -> None:
    vec, clf = _small_fitted(stop_words="english")
    small = ProfanityModel.from_sklearn(vec, clf)
    assert len(small.calibrations) == 2
    for text in ["you idiot fool", "hello, what is bail?", "nothing known here", "IDIOT idiot"]:
        expected = clf.predict_proba(vec.transform([text]))[0, 1]
        assert small.probability(text) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    "options",
    [
        {"ngram_range": (1, 2)},
        {"sublinear_tf": True},
        {"lowercase": False},
        {"analyzer": "char"},
        {"norm": "l1"},
    ],
)
def test_refuses_a_vectorizer_it_would_misread(options: dict[str, object]) -> None:
    vec, clf = _small_fitted(**options)
    with pytest.raises(ValueError, match="unexpected vectorizer settings"):
        ProfanityModel.from_sklearn(vec, clf)


def test_refuses_isotonic_calibration() -> None:
    vec = TfidfVectorizer()
    features = vec.fit_transform(["you idiot", "hello there", "stupid", "what is bail"] * 5)
    clf = CalibratedClassifierCV(LinearSVC(dual=False), cv=2, method="isotonic")
    clf.fit(features, [1, 0, 1, 0] * 5)
    with pytest.raises(ValueError, match="sigmoid"):
        ProfanityModel.from_sklearn(vec, clf)


def test_the_package_model_is_the_one_compiled() -> None:
    assert len(compiled().words) == len(vectorizer.vocabulary_)
    assert len(compiled().calibrations) == len(model.calibrated_classifiers_)
