"""RecentHeads: each user's newest messages in one document, for the embedded store.

mongoeco 4.11's SQLite engine cannot read "this user's newest N" through an index: its SQL
matches fields with `json_extract(...)`, which no expression index it creates covers, so
even a hinted `(user_id, created_at, sort_key)` index is used for the namespace prefix only
(`SEARCH documents USING INDEX ... (db_name=? AND coll_name=?)` + `USE TEMP B-TREE FOR
ORDER BY`); and after every write its planner re-checks the whole collection for arrays,
bytes and `undefined` values before it plans again. Both cost O(collection). A `find_one`
by `_id` skips both (a direct key lookup). Measured on a 2-core VM, p50 of the read right
after a write, one user: find(user).sort.limit(6) 74.5 ms at 4,000 messages (63.7 ms
hinted), find_one(_id) 0.6 ms; the head read 1.4 ms at 20,000 messages, for a new user too.
That decided it: the embedded store keeps, next to `chat_history`, a `chat_recent` document
per user (`_id` = user id) with that user's newest KEEP messages. A write costs one
`find_one` and one `replace_one` by `_id` (about 0.13 ms per kept message: 4 ms at KEEP=20,
15 ms at 100, which is why KEEP stays small). A read the head cannot answer in full (a page
older than it, or a limit above KEEP) falls back to `chat_history`, which still scans.

bench/bench_history.py, per message (history window + save a turn), p50, first / last 500
of 20,000 turns: before 8.0 / 482 ms (new user 10.0 / 400 ms); with the heads and the TTL
entry index (mongo_open) 15.96 / 15.91 ms, new user 15.98 / 16.03 ms (ratios 1.00).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

KEEP = 20
COLLECTION = "chat_recent"
META_COLLECTION = "warden_meta"
BUILT_MARKER = "chat_recent_built"


@dataclass(frozen=True)
class Head:
    messages: list[dict[str, Any]]  # chat_history documents, oldest first
    truncated: bool  # older messages of this user exist outside the head


class RecentHeads:
    """The `chat_recent` collection. One writer per process (the embedded store is
    locked to one process); a lock serialises the read-merge-replace of a head."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self._lock = asyncio.Lock()

    async def read(self, user_id: str) -> Head:
        found = await self._db[COLLECTION].find_one({"_id": user_id})
        if found is None:
            return Head([], truncated=False)
        return Head(list(found["messages"]), bool(found.get("truncated", False)))

    async def add(self, docs: Sequence[dict[str, Any]]) -> None:
        """Merges chat_history documents into their users' heads (idempotent)."""
        by_user: dict[str, list[dict[str, Any]]] = {}
        for doc in docs:
            by_user.setdefault(doc["user_id"], []).append(doc)
        async with self._lock:
            for user_id, mine in by_user.items():
                head = await self.read(user_id)
                merged = {d["_id"]: d for d in [*head.messages, *mine]}
                ordered = sorted(merged.values(), key=lambda d: d["sort_key"])
                truncated = head.truncated or len(ordered) > KEEP
                await self._db[COLLECTION].replace_one(
                    {"_id": user_id},
                    {"messages": ordered[-KEEP:], "truncated": truncated},
                    upsert=True,
                )

    async def build_once(self) -> None:
        """Fills the heads from `chat_history` once per data folder (a folder written before
        heads existed); later opens find the marker and skip it."""
        meta = self._db[META_COLLECTION]
        if await meta.find_one({"_id": BUILT_MARKER}) is not None:
            return
        for user_id in await self._db.chat_history.distinct("user_id"):
            await self.rebuild(user_id)
        await meta.replace_one({"_id": BUILT_MARKER}, {"done": True}, upsert=True)

    async def rebuild(self, user_id: str) -> None:
        """The user's head read again from `chat_history` (after its messages changed)."""
        cursor = self._db.chat_history.find({"user_id": user_id}).sort("sort_key", -1)
        newest = await cursor.limit(KEEP + 1).to_list(None)
        async with self._lock:
            if not newest:
                await self._db[COLLECTION].delete_one({"_id": user_id})
                return
            await self._db[COLLECTION].replace_one(
                {"_id": user_id},
                {"messages": newest[:KEEP][::-1], "truncated": len(newest) > KEEP},
                upsert=True,
            )

    async def forget(self, user_id: str) -> None:
        async with self._lock:
            await self._db[COLLECTION].delete_one({"_id": user_id})
