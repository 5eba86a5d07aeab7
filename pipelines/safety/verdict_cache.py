"""VerdictCache: the route decisions of recent messages, so a message sent again (a flood of
the same abuse, the hundredth "thanks") is not classified again.

A verdict is a pure function of the text and the rules, and the rules are fixed for the life
of the process, so a cached verdict is the verdict. Entries are keyed by a keyed BLAKE2b
digest of the text: the cache never holds a message's text, and nobody outside the process
can aim texts at the same entry. Long texts are always classified (they seldom repeat).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Callable

from pipelines.state import Classification

ENTRIES = 4096
MAX_CHARS = 1000


class VerdictCache:
    def __init__(
        self,
        classify: Callable[[str], Classification],
        *,
        entries: int = ENTRIES,
        max_chars: int = MAX_CHARS,
    ) -> None:
        self._classify = classify
        self._entries: OrderedDict[bytes, Classification] = OrderedDict()
        self._capacity = entries
        self._max_chars = max_chars
        self._key = secrets.token_bytes(16)

    def __call__(self, text: str) -> Classification:
        if len(text) > self._max_chars or self._capacity <= 0:
            return self._classify(text)
        digest = hashlib.blake2b(
            text.encode("utf-8", "surrogatepass"), key=self._key, digest_size=16
        ).digest()
        verdict = self._entries.get(digest)
        if verdict is not None:
            self._entries.move_to_end(digest)
            return verdict
        verdict = self._classify(text)
        self._entries[digest] = verdict
        if len(self._entries) > self._capacity:
            self._entries.popitem(last=False)
        return verdict

    def __len__(self) -> int:
        return len(self._entries)
