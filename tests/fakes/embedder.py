"""FakeEmbedder: a deterministic hashed bag of words, good enough to rank similar texts higher."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

_WORD = re.compile(r"[a-z0-9]+")


def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    """Stable (index, sign) for a feature; independent of PYTHONHASHSEED."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "big")
    return value % dimension, 1.0 if (value >> 63) & 1 else -1.0


def _features(text: str) -> list[tuple[str, float]]:
    """Whole words weigh most; character trigrams give a little fuzziness (plural, typos)."""
    words = _WORD.findall(text.lower())
    features: list[tuple[str, float]] = [(f"w:{word}", 1.0) for word in words]
    for word in words:
        padded = f"#{word}#"
        features.extend((f"c:{padded[i : i + 3]}", 0.25) for i in range(len(padded) - 2))
    return features


class FakeEmbedder:
    """Implements the Embedder port without a model. Counts calls in `calls` and keeps the
    texts of each embed_documents call in `batches`."""

    def __init__(self, dimension: int = 384) -> None:
        self.dimension = dimension
        self.calls = 0
        self.batches: list[list[str]] = []

    def embed_sync(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for feature, weight in _features(text):
            index, sign = _bucket(feature, self.dimension)
            vector[index] += sign * weight
        norm = math.sqrt(sum(v * v for v in vector))
        if norm == 0.0:  # empty / punctuation-only text: a fixed unit vector
            vector[0] = 1.0
            return vector
        return [v / norm for v in vector]

    async def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self.embed_sync(text)

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        self.batches.append(list(texts))
        return [self.embed_sync(text) for text in texts]
