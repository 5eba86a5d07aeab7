"""A bounded LRU of verified bearer tokens, so a token's signature is checked once, not on
every request. An entry is served only while the token is unexpired (`now < exp`): past its
`exp` the token goes back through full verification, which rejects it (or, within the
verifier's leeway, accepts it without caching it again). Only verified tokens are stored."""

from __future__ import annotations

import threading
from collections import OrderedDict

DEFAULT_MAX_ENTRIES = 10_000


class VerifiedTokenCache[V]:
    """token string -> (verified value, exp as a Unix time); least recently used goes first."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[V, float]] = OrderedDict()
        self._lock = threading.Lock()  # verify may also run in worker threads

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, token: str, now: float) -> V | None:
        """The cached value while `now` is before the token's exp; else None (and forgotten)."""
        with self._lock:
            entry = self._entries.get(token)
            if entry is None:
                return None
            if now >= entry[1]:
                del self._entries[token]
                return None
            self._entries.move_to_end(token)
            return entry[0]

    def put(self, token: str, value: V, exp: float, now: float) -> None:
        """Remembers a verified token until `exp`; an already expired one is not stored."""
        if self.max_entries <= 0 or now >= exp:
            return
        with self._lock:
            self._entries[token] = (value, exp)
            self._entries.move_to_end(token)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
