"""Texts unlike any dev text: a check that a model trained on dev did not learn near-copies.

Attack sets hold many variants of one prompt (DAN and its copies), and a hashed split puts
some variants in `dev` and others in `held_out`. `unlike_dev` keeps the texts whose word set
overlaps no dev text of the given sets by `cut` or more (Jaccard), so a held-out figure on
them measures generalisation rather than recall of a variant seen in training.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bench.datasets.base import Dataset

_WORD = re.compile(r"\w+")


def word_set(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def unlike_dev(datasets: Iterable[Dataset], cut: float = 0.5) -> Callable[[str], bool]:
    """Accepts a text whose word-set Jaccard with every dev text of `datasets` is below `cut`."""
    dev = [word_set(text) for dataset in datasets for text in dataset.split("dev")]

    def accepts(text: str) -> bool:
        words = word_set(text)
        return all(jaccard(words, seen) < cut for seen in dev)

    return accepts
