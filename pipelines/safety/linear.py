"""LinearTextModel: a logistic-regression text classifier over hashed n-grams, in plain Python.

The features are the ones `bench/train_classifiers.py` trains on, clause by clause over the
normalised word form (`Prepared.clauses`): every word, every pair of adjacent words in a
clause and, when the model asks for them, the character n-grams of each word padded with
spaces. (Negation-scoped features were measured and dropped: they learned large weights
from "don't be an idiot" and rejected "you are not wrong".) Each feature is hashed
(CRC-32) into `buckets` slots, counted once, and the vector is L2-normalised. The score is
sigmoid(bias + sum of the weights of the present features / sqrt(feature count)).
No vendor code and no I/O: the service reads the weights from a JSON file.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import itemgetter
from typing import Any

FORMAT = "warden-linear-text/1"


def feature_names(clauses: Sequence[str], char_ngrams: tuple[int, ...] = ()) -> set[str]:
    names: set[str] = set()
    for clause in clauses:
        tokens = clause.split()
        names.update(f"b:{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))
        for token in tokens:
            names.add("w:" + token)
            padded = f" {token} "
            for n in char_ngrams:
                names.update("c:" + padded[i : i + n] for i in range(len(padded) - n + 1))
    return names


def hashed_features(
    clauses: Sequence[str], buckets: int, char_ngrams: tuple[int, ...] = ()
) -> list[int]:
    """The distinct slots of the features of a message's normalised clauses, sorted."""
    return sorted(feature_slots(clauses, buckets, char_ngrams))


def feature_slots(
    clauses: Sequence[str], buckets: int, char_ngrams: tuple[int, ...] = ()
) -> set[int]:
    """The slots of `feature_names`, with each word's own features hashed once per process."""
    slots: set[int] = set()
    for clause in clauses:
        tokens = clause.split()
        slots.update(
            zlib.crc32(f"b:{a} {b}".encode()) % buckets
            for a, b in zip(tokens, tokens[1:], strict=False)
        )
        for token in tokens:
            slots.update(_word_slots(token, buckets, char_ngrams))
    return slots


_CHAR_SEED = zlib.crc32(b"c:")  # crc32(b"c:" + gram) == crc32(gram, _CHAR_SEED)
_WORD_SEED = zlib.crc32(b"w:")


@lru_cache(maxsize=2**16)
def _word_slots(token: str, buckets: int, char_ngrams: tuple[int, ...]) -> tuple[int, ...]:
    """The slots of `feature_names((token,), char_ngrams)`, hashed without building names."""
    padded = f" {token} "
    crc = zlib.crc32
    if padded.isascii():  # one byte a character: the grams are slices of the encoded word
        data = padded.encode()
        hashes = [
            crc(data[i : i + n], _CHAR_SEED) for n in char_ngrams for i in range(len(data) - n + 1)
        ]
    else:
        hashes = [
            crc(padded[i : i + n].encode(), _CHAR_SEED)
            for n in char_ngrams
            for i in range(len(padded) - n + 1)
        ]
    hashes.append(crc(token.encode(), _WORD_SEED))
    return tuple({h % buckets for h in hashes})


def _gathered(dense: list[float], slots: Collection[int]) -> tuple[float, ...]:
    """`dense[slot]` for every slot, in the iteration order of `slots` (so a sum of them adds
    up as a sum over `slots` does)."""
    found = itemgetter(*slots)(dense)
    return found if len(slots) > 1 else (found,)


@dataclass(frozen=True)
class LinearTextModel:
    name: str
    buckets: int
    bias: float
    weights: Mapping[int, float] = field(repr=False)
    char_ngrams: tuple[int, ...] = ()
    about: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def probability(self, clauses: Sequence[str]) -> float:
        if isinstance(clauses, str):
            raise TypeError("probability() takes the clauses of a message, not one string")
        return self.probability_of(hashed_features(clauses, self.buckets, self.char_ngrams))

    def probability_of(self, slots: Collection[int]) -> float:
        """The probability for already hashed features (`hashed_features` with this model's
        buckets and char_ngrams)."""
        if not slots:
            return 1 / (1 + math.exp(-self.bias))
        total = sum(_gathered(self._dense, slots)) / math.sqrt(len(slots))
        return 1 / (1 + math.exp(-(self.bias + total)))

    @cached_property
    def _dense(self) -> list[float]:
        """The weight of every slot (0.0 when absent), read in C by slot; equal weights share
        one float, so the few thousand values stay in the CPU cache."""
        dense: list[float] = [0.0] * self.buckets
        shared: dict[float, float] = {}
        for slot, weight in self.weights.items():
            dense[slot] = shared.setdefault(weight, weight) if weight else weight  # keeps -0.0
        return dense

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> LinearTextModel:
        """Builds a model from its parsed JSON file; raises ValueError naming a bad entry."""
        if not isinstance(data, Mapping):
            raise ValueError("a model file must hold a JSON object")
        if data.get("format") != FORMAT:
            raise ValueError(f"model format must be {FORMAT!r}")
        buckets, slots, values = data.get("buckets"), data.get("slots"), data.get("weights")
        if not isinstance(buckets, int) or buckets <= 0:
            raise ValueError("model buckets must be a positive integer")
        if not isinstance(slots, list) or not isinstance(values, list) or len(slots) != len(values):
            raise ValueError("model slots and weights must be lists of the same length")
        if any(not isinstance(s, int) or not 0 <= s < buckets for s in slots):
            raise ValueError("model slots must be integers below buckets")
        ngrams = data.get("char_ngrams") or []
        if any(not isinstance(n, int) or n < 1 for n in ngrams):
            raise ValueError("model char_ngrams must be positive integers")
        return cls(
            name=str(data.get("name") or "model"),
            buckets=buckets,
            bias=float(data.get("bias", 0.0)),
            weights=dict(zip(slots, (float(v) for v in values), strict=True)),
            char_ngrams=tuple(ngrams),
            about=dict(data.get("about") or {}),
        )

    def to_mapping(self) -> dict[str, Any]:
        slots = sorted(self.weights)
        return {
            "format": FORMAT,
            "name": self.name,
            "buckets": self.buckets,
            "char_ngrams": list(self.char_ngrams),
            "bias": self.bias,
            "about": dict(self.about),
            "slots": slots,
            "weights": [self.weights[s] for s in slots],
        }
