"""Hate speech written by models and scored by people: PyRIT's scorer-evaluation sets."""

from __future__ import annotations

import csv
import io

from bench.datasets.base import Dataset, make
from bench.datasets.sources import ARCHIVES, read_member

# (member, score column, lowest score that counts as hateful)
_FILES = (
    ("pyrit/datasets/scorer_evals/harm/hate_speech.csv", "human_score_1", 0.75),
    ("pyrit/datasets/scorer_evals/objective/hate_speech.csv", "human_score", 1.0),
)


def _rows(member: str) -> list[dict[str, str]]:
    text = read_member("pyrit", member)
    if text.startswith("#"):  # a version comment line precedes the header
        text = text.split("\n", 1)[1]
    return list(csv.DictReader(io.StringIO(text)))


def pyrit_hate_speech() -> Dataset:
    texts = [
        row["assistant_response"]
        for member, column, lowest in _FILES
        for row in _rows(member)
        if float(row[column] or 0) >= lowest
    ]
    return make(
        "pyrit-hate-speech",
        "abuse",
        "abusive",
        "pyrit 1.1.0 datasets/scorer_evals/{harm,objective}/hate_speech.csv, responses people "
        "scored hateful (>= 0.75 / 1)",
        ARCHIVES["pyrit"].licence,
        texts,
    )
