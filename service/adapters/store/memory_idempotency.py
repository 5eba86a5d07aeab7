"""MemoryIdempotency: the IdempotencyStore port in this process's memory, for a deployment
whose store keeps no collections of its own (and for tests). Records expire like the
MongoDB ones: a record created before `expired_before` counts as gone."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pipelines.ports import IdempotencyRecord


class MemoryIdempotency:
    def __init__(self) -> None:
        self.records: dict[str, IdempotencyRecord] = {}

    async def claim(
        self, record: IdempotencyRecord, *, stale_before: datetime, expired_before: datetime
    ) -> IdempotencyRecord | None:
        held = self.records.get(record.key)
        alive = held is not None and held.created_at >= expired_before
        if alive and held and (held.answer is not None or held.created_at >= stale_before):
            return held
        self.records[record.key] = replace(record, answer=None)
        return None

    async def complete(self, user_id: str, key: str, answer: str) -> None:
        held = self.records.get(key)
        if held is not None and held.user_id == user_id:
            self.records[key] = replace(held, answer=answer)

    async def release(self, user_id: str, key: str) -> None:
        held = self.records.get(key)
        if held is not None and held.user_id == user_id and held.answer is None:
            del self.records[key]
