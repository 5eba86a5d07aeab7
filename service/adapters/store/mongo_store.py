"""MongoStore: the Store port on the PyMongo async API (MongoDB, or mongoeco in-process/wire).

`db` is an async database object: `pymongo.AsyncMongoClient(...)[name]` or mongoeco's
`AsyncMongoClient(engine)[name]` (entered with `async with` first). Only calls both clients
share are used. Indexes are made with the `createIndexes` server command, which both take
alike (their `create_index` spell the TTL option differently); mongoeco's exceptions
subclass PyMongo's, so catching `pymongo.errors` covers both. Any driver error becomes
StoreUnavailable; a taken unique key becomes AlreadyExists.

Collections: `users` (`_id` = user id; email lowercased, unique), `chat_history` (one
document per message, `_id` = turn_id:role; TTL 30 days on created_at; read newest first
through the `(user_id, created_at desc, sort_key desc)` index, hinted), `documents`
(upload records; TTL on expires_at plus a day of grace, so the cleanup job still finds an
expired record through `expired_documents` before the TTL monitor drops it). With
`recent_heads=True` (the embedded store) also `chat_recent`, each user's newest messages in
one document (mongo_recent: mongoeco cannot read a user's newest through an index).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo.errors import BulkWriteError, DuplicateKeyError

from pipelines.ports import (
    AlreadyExists,
    ChatRecord,
    DocumentRecord,
    HistoryCursor,
    UserRecord,
)
from service.adapters.store import mongo_documents as docs
from service.adapters.store.mongo_accounts import AccountDataMixin
from service.adapters.store.mongo_errors import driver_errors as _driver_errors
from service.adapters.store.mongo_recent import RecentHeads

HISTORY_TTL_SECONDS = 30 * 24 * 3600
DOCUMENT_TTL_GRACE_SECONDS = 24 * 3600
_DUPLICATE_KEY = 11000
_READY = {"state": {"$ne": "pending"}}  # records written before upload states count as ready
HISTORY_INDEX = "user_created_desc"

_INDEXES: dict[str, list[dict[str, Any]]] = {
    "users": [{"key": {"email": 1}, "name": "email_unique", "unique": True}],
    "chat_history": [
        {"key": {"user_id": 1, "created_at": -1, "sort_key": -1}, "name": HISTORY_INDEX},
        {"key": {"created_at": 1}, "name": "ttl", "expireAfterSeconds": HISTORY_TTL_SECONDS},
    ],
    "documents": [
        {"key": {"user_id": 1, "expires_at": 1}, "name": "user_expires"},
        {"key": {"state": 1, "created_at": 1}, "name": "state_created"},
        {"key": {"expires_at": 1}, "name": "ttl", "expireAfterSeconds": DOCUMENT_TTL_GRACE_SECONDS},
    ],
}


class MongoStore(AccountDataMixin):
    """The Store port over an async (PyMongo-compatible) database."""

    def __init__(
        self,
        db: Any,
        *,
        on_close: Callable[[], Awaitable[None]] | None = None,
        recent_heads: bool = False,
        on_compact: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._db = db
        self._on_close = on_close
        self._on_compact = on_compact
        self._indexes_ready = False
        self._heads = RecentHeads(db) if recent_heads else None

    @property
    def database(self) -> Any:
        """The database, for adapters that keep a collection of their own beside these."""
        return self._db

    async def ensure_indexes(self) -> None:
        """Creates the indexes (idempotent). Retried by ping and by the writes that rely on a
        unique index, for a store that was down when it was opened."""
        with _driver_errors():
            for collection, indexes in _INDEXES.items():
                await self._db.command({"createIndexes": collection, "indexes": indexes})
            if self._heads is not None:
                await self._heads.build_once()
        self._indexes_ready = True

    # ------------------------------------------------------------ chat
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        if not records:
            return
        stored = [docs.chat_doc(r) for r in records]
        with _driver_errors():
            try:
                # Unordered insert: a message already stored fails alone with a duplicate key.
                # (Upserts cost O(collection) on mongoeco's SQLite engine; this does not.)
                await self._db.chat_history.insert_many(stored, ordered=False)
            except BulkWriteError as error:
                if not _only_duplicates(error.details):
                    raise
            if self._heads is not None:  # after the insert: a failure here is retried whole
                await self._heads.add(stored)

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        if limit <= 0:
            return []
        since = docs.as_utc(since)
        if self._heads is not None:
            with _driver_errors():
                head = await self._heads.read(user_id)
            # A head never expires: drop what the TTL monitor would have dropped.
            since = max(since, datetime.now(UTC) - timedelta(seconds=HISTORY_TTL_SECONDS))
            kept = [docs.chat_record(d) for d in head.messages]
            fits = [
                r for r in kept if r.created_at >= since and (before is None or before.is_after(r))
            ]
            if len(fits) >= limit or not head.truncated or (kept and kept[0].created_at < since):
                return fits[-limit:]
        with _driver_errors():
            found = await self._history_cursor(user_id, since, before).limit(limit).to_list(None)
        return [docs.chat_record(d) for d in reversed(found)]

    def _history_cursor(self, user_id: str, since: datetime, before: HistoryCursor | None) -> Any:
        """Newest first through the (user_id, created_at desc, sort_key desc) index."""
        at: dict[str, Any] = {"$gte": docs.as_utc(since)}
        query: dict[str, Any] = {"user_id": user_id, "created_at": at}
        if before is not None:
            at["$lte"] = docs.as_utc(before.created_at)
            query["sort_key"] = {"$lt": docs.sort_key_at(before.created_at, before.role)}
        cursor = self._db.chat_history.find(query).sort([("created_at", -1), ("sort_key", -1)])
        # Hinted once the index surely exists (a store opened while down has none yet).
        return cursor.hint(HISTORY_INDEX) if self._indexes_ready else cursor

    async def explain_history(self, user_id: str, since: datetime) -> dict[str, Any]:
        """The store's plan for the `chat_history` read of `recent_history` (tests, bench)."""
        with _driver_errors():
            plan: dict[str, Any] = (
                await self._history_cursor(user_id, since, None).limit(6).explain()
            )
        return plan

    # ------------------------------------------------------------ users
    async def create_user(self, user: UserRecord) -> None:
        await self._insert_new("users", docs.user_doc(user), "user already exists")

    async def user_by_email(self, email: str) -> UserRecord | None:
        with _driver_errors():
            found = await self._db.users.find_one({"email": docs.normal_email(email)})
        return None if found is None else docs.user_record(found)

    # ------------------------------------------------------------ documents
    async def add_document(self, record: DocumentRecord) -> None:
        await self._insert_new("documents", docs.document_doc(record), "document id taken")

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]:
        query = {"user_id": user_id, "expires_at": {"$gt": docs.as_utc(now)}, **_READY}
        return await self._documents(query, [("created_at", 1), ("_id", 1)])

    async def mark_document_ready(self, doc_id: str, *, user_id: str) -> bool:
        query = {"_id": doc_id, "user_id": user_id, "state": "pending"}
        with _driver_errors():
            result = await self._db.documents.update_one(query, {"$set": {"state": "ready"}})
        return bool(result.matched_count == 1)

    async def pending_documents(self, created_before: datetime) -> list[DocumentRecord]:
        query = {"state": "pending", "created_at": {"$lte": docs.as_utc(created_before)}}
        return await self._documents(query, [("created_at", 1), ("_id", 1)])

    async def delete_document(self, doc_id: str, *, user_id: str) -> bool:
        with _driver_errors():
            result = await self._db.documents.delete_one({"_id": doc_id, "user_id": user_id})
        return bool(result.deleted_count == 1)

    async def expired_documents(self, now: datetime) -> list[DocumentRecord]:
        query = {"expires_at": {"$lte": docs.as_utc(now)}}
        return await self._documents(query, [("expires_at", 1), ("_id", 1)])

    # ------------------------------------------------------------ lifecycle
    async def ping(self) -> None:
        with _driver_errors():
            await self._db.command({"ping": 1})
        if not self._indexes_ready:
            await self.ensure_indexes()

    async def close(self) -> None:
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            with _driver_errors():
                await on_close()

    # ------------------------------------------------------------ helpers
    async def _insert_new(self, collection: str, doc: dict[str, Any], taken: str) -> None:
        if not self._indexes_ready:  # the unique index must exist before we rely on it
            await self.ensure_indexes()
        with _driver_errors():
            try:
                await self._db[collection].insert_one(doc)
            except DuplicateKeyError:
                raise AlreadyExists(taken) from None

    async def _documents(
        self, query: dict[str, Any], order: list[tuple[str, int]]
    ) -> list[DocumentRecord]:
        with _driver_errors():
            found = await self._db.documents.find(query).sort(order).to_list(None)
        return [docs.document_record(d) for d in found]


def _only_duplicates(details: Mapping[str, Any]) -> bool:
    errors = details.get("writeErrors") or []
    return (
        bool(errors)
        and not details.get("writeConcernErrors")
        and all(e.get("code") == _DUPLICATE_KEY for e in errors)
    )
