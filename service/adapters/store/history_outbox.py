"""OutboxChatStore: a Store wrapper that never loses an answered chat turn (SPEC 6.8).

When `save_turn` fails with StoreUnavailable the turn is appended to an append-only JSON-lines
file (flushed and fsynced before returning) and the call returns normally. Queued turns are
re-sent by `replay()` (idempotent: the store keys messages by turn_id + role) and dropped from
the file only once stored; the file is rewritten atomically (temp file, fsync, rename).

When replay runs: after the next save that succeeds (the store is evidently back), and
whenever the owner calls `replay()` (at startup and from a periodic task). A save never
retries the queue first, so an outage costs each request one store timeout, not two.

`recent_history` merges in the user's still-queued turns (deduplicated by turn_id + role), so
a user sees their answered turn even while the store is down; if the store fails and nothing
is queued for that user, StoreUnavailable propagates as usual (the caller degrades).

One process per outbox folder. The file holds chat text: it is created owner-only (0600).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pipelines.ports import (
    ChatRecord,
    HistoryCursor,
    Store,
    StoreUnavailable,
)
from service.adapters.store.delegating import DelegatingStore
from service.adapters.store.outbox_file import OutboxFile

log = logging.getLogger(__name__)
_ROLE_ORDER = {"user": 0, "assistant": 1}


class OutboxChatStore(DelegatingStore):
    """Store wrapper: chat turns go to the store, or to a local outbox while it is down."""

    def __init__(self, inner: Store, outbox_dir: Path) -> None:
        super().__init__(inner)
        self._file = OutboxFile(Path(outbox_dir) / "history-outbox.jsonl")
        self._queue: list[list[ChatRecord]] | None = None  # mirror of the file, loaded lazily
        self._lock = asyncio.Lock()

    async def queued_turns(self) -> int:
        """How many turns wait in the outbox (for readiness and metrics)."""
        async with self._lock:
            return len(await self._loaded())

    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        try:
            await self._inner.save_turn(records)
        except StoreUnavailable:
            async with self._lock:
                queue = await self._loaded()
                try:
                    await asyncio.to_thread(self._file.append, list(records))
                except OSError as error:
                    raise StoreUnavailable("history outbox unwritable") from error
                queue.append(list(records))
            log.warning("chat store unavailable: turn queued in the history outbox")
            return
        if self._queue:  # the store is back: drain what waited
            await self.replay()

    async def replay(self) -> int:
        """Re-sends queued turns in order; stops at the first failure. Returns turns stored."""
        async with self._lock:
            queue = await self._loaded()
            stored = 0
            try:
                for records in queue:
                    await self._inner.save_turn(records)
                    stored += 1
            except StoreUnavailable:
                log.info("history outbox: store still unavailable, %d turns wait", len(queue))
            if stored:
                del queue[:stored]
                await asyncio.to_thread(self._file.rewrite, queue)
            return stored

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        async with self._lock:
            queued = [
                r
                for turn in await self._loaded()
                for r in turn
                if r.user_id == user_id
                and r.created_at >= since
                and (before is None or before.is_after(r))
            ]
        try:
            stored = await self._inner.recent_history(
                user_id, since=since, limit=limit, before=before
            )
        except StoreUnavailable:
            if not queued:
                raise
            stored = []
        merged = {(r.turn_id, r.role): r for r in [*stored, *queued]}
        ordered = sorted(merged.values(), key=lambda r: (r.created_at, _ROLE_ORDER[r.role]))
        return ordered[-limit:] if limit > 0 else []

    async def forget_user(self, user_id: str) -> int:
        """Drops the user's queued turns (their history is being erased); how many."""
        async with self._lock:
            queue = await self._loaded()
            kept = [turn for turn in queue if not any(r.user_id == user_id for r in turn)]
            dropped = len(queue) - len(kept)
            if dropped:
                queue[:] = kept
                await asyncio.to_thread(self._file.rewrite, queue)
            return dropped

    async def _loaded(self) -> list[list[ChatRecord]]:
        if self._queue is None:
            try:
                self._queue = await asyncio.to_thread(self._file.load)
            except OSError as error:
                raise StoreUnavailable("history outbox unreadable") from error
        return self._queue
