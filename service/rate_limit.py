"""Per-user rate limit: an in-memory sliding window of request times, keyed by the token's sub.

In-memory means per process: behind a load balancer each instance enforces its own window.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

WINDOW_S = 60.0


class SlidingWindowLimiter:
    """Allows `limit` requests per user in any 60-second window; `limit` 0 turns it off."""

    def __init__(self, limit: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._last_sweep = clock()

    def check(self, key: str) -> float | None:
        """Records one request; returns None if allowed, else seconds until one is allowed."""
        wait_s = self.wait(key)
        if wait_s is None and self.limit > 0:
            self._hits[key].append(self._clock())
        return wait_s

    def wait(self, key: str) -> float | None:
        """Like `check`, but records nothing (for budgets that count failures only)."""
        if self.limit <= 0:
            return None
        now = self._clock()
        self._sweep(now)
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - WINDOW_S:
            hits.popleft()
        if len(hits) >= self.limit:
            return max(hits[0] + WINDOW_S - now, 0.0)
        return None

    def record(self, key: str) -> None:
        """Counts one event against `key` (whether or not it is over the limit)."""
        if self.limit > 0:
            self.wait(key)  # drops hits that left the window
            self._hits[key].append(self._clock())

    def tracked_keys(self) -> frozenset[str]:
        """The keys this limiter holds in memory now (idle ones stay until the next sweep)."""
        return frozenset(self._hits)

    def _sweep(self, now: float) -> None:
        """Forgets idle users once a window, so memory follows active users only."""
        if now - self._last_sweep < WINDOW_S:
            return
        self._last_sweep = now
        idle = [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - WINDOW_S]
        for key in idle:
            del self._hits[key]


def retry_after_header(wait_s: float) -> dict[str, str]:
    return {"Retry-After": str(max(1, math.ceil(wait_s)))}
