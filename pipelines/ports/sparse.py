"""The sparse (BM25-style) vectors the index port carries, and the pure encoder that makes them.

Both sides must agree on term ids, so the encoder is part of the port's data format: ingestion
encodes each child's indexed text, `retrieve` encodes the question, the same way.

- Tokens: NFKC, lower case, runs of letters and digits; English stop words dropped; a light
  suffix stripper folds plurals and -ing/-ed forms ("complaints" -> "complaint").
- Term id: the first 4 bytes of BLAKE2b of the token, as an unsigned 31-bit integer (stable
  across processes and machines, unlike `hash()`).
- Document values: BM25's term-frequency saturation `tf (k1 + 1) / (tf + k1 (1 - b + b len/avg))`.
  Query values: 1.0 per distinct term. The inverse document frequency is the index's job (Qdrant's
  `Modifier.IDF`: `ln(1 + (N - n + 0.5) / (n + 0.5))`), so the score is BM25.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

K1 = 1.2
B = 0.75
AVERAGE_TOKENS = 60.0  # a ~350-character child with its header, after stop words
_TOKEN = re.compile(r"[^\W_]+")
_STOP_TEXT = """a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it its
itself just me more most my myself no nor not now of off on once only or other our ours ourselves
out over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


@dataclass(frozen=True)
class SparseVector:
    """Term ids (ascending, distinct) and their weights."""

    indices: tuple[int, ...] = ()
    values: tuple[float, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.indices)


def _stem(token: str) -> str:
    if len(token) <= 4 or token.isdigit():
        return token
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            if suffix == "s" and token.endswith(("ss", "us", "is")):
                return token
            if suffix == "es" and not token.endswith(("sses", "xes", "ches", "shes")):
                continue
            return token[: len(token) - len(suffix)] + replacement
    return token


def tokens(text: str) -> list[str]:
    """The terms of `text`, in order (stop words and one-letter tokens dropped)."""
    words = _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())
    return [_stem(w) for w in words if w not in STOP_WORDS and (len(w) > 1 or w.isdigit())]


def term_id(term: str) -> int:
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest()) >> 1


def _vector(weights: dict[int, float]) -> SparseVector:
    ordered = sorted(weights.items())
    return SparseVector(tuple(i for i, _ in ordered), tuple(v for _, v in ordered))


def _ids(counts: Counter[str]) -> dict[int, float]:
    merged: dict[int, float] = {}
    for term, count in counts.items():  # two terms on one id (a hash collision) add up
        key = term_id(term)
        merged[key] = merged.get(key, 0.0) + count
    return merged


def encode_document(text: str) -> SparseVector:
    """BM25-saturated term frequencies of an indexed text (no IDF: the index applies it)."""
    terms = tokens(text)
    norm = K1 * (1 - B + B * len(terms) / AVERAGE_TOKENS)
    return _vector({i: tf * (K1 + 1) / (tf + norm) for i, tf in _ids(Counter(terms)).items()})


def encode_query(text: str) -> SparseVector:
    """1.0 per distinct query term."""
    return _vector(dict.fromkeys(_ids(Counter(tokens(text))), 1.0))
