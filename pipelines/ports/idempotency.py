"""The idempotency port: remembers, per user and client-chosen key, the answer to a request,
so a retried request gets that answer instead of running (and being stored) again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class IdempotencyRecord:
    user_id: str
    key: str
    fingerprint: str  # a digest of the request: the same key with another request is a misuse
    created_at: datetime
    answer: str | None = None  # the answer (JSON text) once the request completed


@runtime_checkable
class IdempotencyStore(Protocol):
    async def claim(
        self, record: IdempotencyRecord, *, stale_before: datetime, expired_before: datetime
    ) -> IdempotencyRecord | None:
        """Claims (user_id, key) for `record` (its answer is None): None when this call claimed
        it; else the record holding it, pending (answer None) or completed. Of concurrent
        claims exactly one wins. A pending claim created before `stale_before` (its request
        died) and any record created before `expired_before` are replaced."""
        ...

    async def complete(self, user_id: str, key: str, answer: str) -> None:
        """Stores the answer of the request that holds the claim."""
        ...

    async def release(self, user_id: str, key: str) -> None:
        """Drops a pending claim (its request failed), so a retry can run."""
        ...
