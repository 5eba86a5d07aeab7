"""MongoStore: the Store port on the PyMongo async API (MongoDB, or mongoeco in-process/wire).

`db` is an async database object: `pymongo.AsyncMongoClient(...)[name]` or mongoeco's
`AsyncMongoClient(engine)[name]` (entered with `async with` first). Only calls both clients
share are used. Indexes are made with the `createIndexes` server command, which both take
alike (their `create_index` spell the TTL option differently); mongoeco's exceptions
subclass PyMongo's, so catching `pymongo.errors` covers both. Any driver error becomes
StoreUnavailable; a taken unique key becomes AlreadyExists.

Collections: `users` (`_id` = user id; email lowercased, unique), `chat_history` (one
document per message, `_id` = turn_id:role; TTL 30 days on created_at), `documents`
(upload records; TTL on expires_at plus a day of grace, so the cleanup job still finds an
expired record through `expired_documents` before the TTL monitor drops it).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from mongoeco.errors import MongoEcoError
from pymongo.errors import BulkWriteError, DuplicateKeyError, PyMongoError

from pipelines.ports import AlreadyExists, ChatRecord, DocumentRecord, StoreUnavailable, UserRecord
from service.adapters.store import mongo_documents as docs

HISTORY_TTL_SECONDS = 30 * 24 * 3600
DOCUMENT_TTL_GRACE_SECONDS = 24 * 3600
_DRIVER_ERRORS = (PyMongoError, MongoEcoError, sqlite3.Error, OSError)
_DUPLICATE_KEY = 11000

_INDEXES: dict[str, list[dict[str, Any]]] = {
    "users": [{"key": {"email": 1}, "name": "email_unique", "unique": True}],
    "chat_history": [
        {"key": {"user_id": 1, "sort_key": 1}, "name": "user_sort_key"},
        {"key": {"created_at": 1}, "name": "ttl", "expireAfterSeconds": HISTORY_TTL_SECONDS},
    ],
    "documents": [
        {"key": {"user_id": 1, "expires_at": 1}, "name": "user_expires"},
        {"key": {"expires_at": 1}, "name": "ttl", "expireAfterSeconds": DOCUMENT_TTL_GRACE_SECONDS},
    ],
}


@contextmanager
def _driver_errors() -> Iterator[None]:
    try:
        yield
    except _DRIVER_ERRORS as error:
        raise StoreUnavailable(f"store error: {type(error).__name__}") from error


class MongoStore:
    """The Store port over an async (PyMongo-compatible) database."""

    def __init__(self, db: Any, *, on_close: Callable[[], Awaitable[None]] | None = None) -> None:
        self._db = db
        self._on_close = on_close
        self._indexes_ready = False

    async def ensure_indexes(self) -> None:
        """Creates the indexes (idempotent). Retried by ping and by the writes that rely on a
        unique index, for a store that was down when it was opened."""
        with _driver_errors():
            for collection, indexes in _INDEXES.items():
                await self._db.command({"createIndexes": collection, "indexes": indexes})
        self._indexes_ready = True

    # ------------------------------------------------------------ chat
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        if not records:
            return
        with _driver_errors():
            try:
                # Unordered insert: a message already stored fails alone with a duplicate key.
                # (Upserts cost O(collection) on mongoeco's SQLite engine; this does not.)
                await self._db.chat_history.insert_many(
                    [docs.chat_doc(r) for r in records], ordered=False
                )
            except BulkWriteError as error:
                if not _only_duplicates(error.details):
                    raise

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int
    ) -> list[ChatRecord]:
        if limit <= 0:
            return []
        # The newest `limit` messages, then those since `since`: the same answer as filtering
        # first, with one field fewer for mongoeco's planner to scan (see mongo_open figures).
        with _driver_errors():
            cursor = self._db.chat_history.find({"user_id": user_id}).sort("sort_key", -1)
            found = await cursor.limit(limit).to_list(None)
        records = [docs.chat_record(d) for d in reversed(found)]
        return [r for r in records if r.created_at >= docs.as_utc(since)]

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
        query = {"user_id": user_id, "expires_at": {"$gt": docs.as_utc(now)}}
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
