"""RecentDetections: a PiiDetector wrapper that remembers the spans found in recent texts.

A chat's question is examined twice (masked by `retrieve`, then again when the turn is
stored masked, service/adapters/store/sealed_history.py), and the restored history window
is examined again by every follow-up question. The cache keys are SHA-256 digests of the
texts and the values offsets and types, so it keeps no text. Least recently used goes first.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from pipelines.ports import PiiDetector, PiiSpan

DEFAULT_ENTRIES = 1024


class RecentDetections:
    def __init__(self, inner: PiiDetector, entries: int = DEFAULT_ENTRIES) -> None:
        self._inner = inner
        self._entries = entries
        self._spans: OrderedDict[bytes, tuple[PiiSpan, ...]] = OrderedDict()

    async def detect(self, text: str) -> list[PiiSpan]:
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
        found = self._spans.get(key)
        if found is not None:
            self._spans.move_to_end(key)
            return list(found)
        spans = await self._inner.detect(text)
        self._spans[key] = tuple(spans)
        while len(self._spans) > self._entries:
            self._spans.popitem(last=False)
        return spans
