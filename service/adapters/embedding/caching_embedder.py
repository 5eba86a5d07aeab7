"""Embedder wrapper: remembers vectors per text in a bounded LRU, so repeated passages' sentences
(and repeated questions) are not embedded again.

Keys are 16-byte BLAKE2b digests of the text, tagged query/document (an asymmetric model embeds
the two differently): the cache holds no text, only vectors, stored as `array('d')` (~3 KB per
384-d vector, lossless for float32 and float64 models). Wire it inside the metering proxy, so a
call answered from the cache is still counted as the request's embed call.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from pipelines.ports import Embedder

DEFAULT_MAX_ENTRIES = 4096  # ~13 MB of 384-d vectors
_QUERY, _DOCUMENT = b"q", b"d"


def _key(kind: bytes, text: str) -> bytes:
    return kind + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class CachingEmbedder:
    """Implements the Embedder port over `inner`; at most `max_entries` vectors (0: no cache)."""

    def __init__(self, inner: Embedder, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self._inner = inner
        self.dimension = inner.dimension
        self.max_entries = max(0, max_entries)
        self._vectors: OrderedDict[bytes, array[float]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __getattr__(self, name: str) -> Any:
        """Anything else the inner adapter offers (ping, warm, close) is its own."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def __len__(self) -> int:
        return len(self._vectors)

    def cached_keys(self) -> list[bytes]:
        """The cache's keys (kind tag + text digest), least recently used first."""
        return list(self._vectors)

    def _get(self, key: bytes) -> list[float] | None:
        vector = self._vectors.get(key)
        if vector is None:
            self.misses += 1
            return None
        self.hits += 1
        self._vectors.move_to_end(key)
        return vector.tolist()

    def _put(self, key: bytes, vector: Sequence[float]) -> None:
        if not self.max_entries:
            return
        self._vectors[key] = array("d", vector)
        self._vectors.move_to_end(key)
        while len(self._vectors) > self.max_entries:
            self._vectors.popitem(last=False)  # the least recently used

    async def embed_query(self, text: str) -> list[float]:
        key = _key(_QUERY, text)
        cached = self._get(key)
        if cached is not None:
            return cached
        vector = await self._inner.embed_query(text)
        self._put(key, vector)
        return list(vector)

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One inner call for the texts not cached (each distinct text once), none if all are."""
        keys = [_key(_DOCUMENT, text) for text in texts]
        found: dict[bytes, list[float]] = {}
        missing: dict[bytes, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key in found or key in missing:
                continue
            cached = self._get(key)
            if cached is None:
                missing[key] = text
            else:
                found[key] = cached
        if missing:
            vectors = await self._inner.embed_documents(list(missing.values()))
            if len(vectors) != len(missing):
                raise RuntimeError(f"embedder returned {len(vectors)} vectors for {len(missing)}")
            for key, vector in zip(missing, vectors, strict=True):
                self._put(key, vector)
                found[key] = list(vector)
        return [list(found[key]) for key in keys]
