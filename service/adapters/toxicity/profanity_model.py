"""alt-profanity-check's shipped model, compiled once into a word table.

The package ships a TF-IDF vectorizer (lowercased words of two or more word characters,
English stop words dropped, L2-normalised) and a `CalibratedClassifierCV` of five linear
SVMs, each with a sigmoid calibration. Its probability is the mean over the five of
expit(-(a * (x . w + b) + c)). Through sklearn, one text costs ~4 ms, most of it input
validation; here it is one dictionary lookup per word and five dot products, and the
result matches sklearn's to 1e-9 (tested).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_WORD = re.compile(r"(?u)\b\w\w+\b")


@dataclass(frozen=True)
class ProfanityModel:
    """Per vocabulary word: its idf and its weight in each of the calibrated SVMs."""

    words: Mapping[str, tuple[float, tuple[float, ...]]] = field(repr=False)
    intercepts: tuple[float, ...]
    calibrations: tuple[tuple[float, float], ...]  # (a, b) of each sigmoid

    def probability(self, text: str) -> float:
        counts = Counter(_WORD.findall(text.lower()))
        present = [(self.words[w], n) for w, n in counts.items() if w in self.words]
        norm = math.sqrt(sum((idf * n) ** 2 for (idf, _), n in present)) or 1.0
        total = 0.0
        for i, (a, b) in enumerate(self.calibrations):
            decision = self.intercepts[i]
            decision += sum(idf * n * weights[i] for (idf, weights), n in present) / norm
            total += 1.0 / (1.0 + math.exp(a * decision + b))
        return total / len(self.calibrations)

    @classmethod
    def from_sklearn(cls, vectorizer: Any, calibrated: Any) -> ProfanityModel:
        """Reads the fitted vectorizer and classifier; refuses a shape it does not know."""
        params = vectorizer.get_params()
        expected = {
            "analyzer": "word",
            "lowercase": True,
            "ngram_range": (1, 1),
            "norm": "l2",
            "use_idf": True,
            "sublinear_tf": False,
            "binary": False,
            "strip_accents": None,
            "preprocessor": None,
            "tokenizer": None,
            "token_pattern": _WORD.pattern,
        }
        wrong = {k: params.get(k) for k, v in expected.items() if params.get(k) != v}
        if wrong:
            raise ValueError(f"unexpected vectorizer settings: {wrong}")
        fitted: Sequence[Any] = calibrated.calibrated_classifiers_
        if any(c.method != "sigmoid" or list(c.classes) != [0, 1] for c in fitted):
            raise ValueError("expected binary classifiers with sigmoid calibration")
        idf = vectorizer.idf_
        coefs = [c.estimator.coef_[0] for c in fitted]
        words = {
            word: (float(idf[col]), tuple(float(coef[col]) for coef in coefs))
            for word, col in vectorizer.vocabulary_.items()
        }
        return cls(
            words=words,
            intercepts=tuple(float(c.estimator.intercept_[0]) for c in fitted),
            calibrations=tuple(
                (float(c.calibrators[0].a_), float(c.calibrators[0].b_)) for c in fitted
            ),
        )


def shipped_profanity_model() -> ProfanityModel:
    """The model inside the installed alt-profanity-check package (no download)."""
    from profanity_check.profanity_check import model, vectorizer

    return ProfanityModel.from_sklearn(vectorizer, model)
