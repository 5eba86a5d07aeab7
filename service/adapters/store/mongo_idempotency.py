"""MongoIdempotency: the IdempotencyStore port on the database of a MongoStore (MongoDB, or
mongoeco in-process or over its wire server), in its own collection `chat_idempotency`:
`_id` = the record's key (a digest that already names the user), a TTL index of 24 hours on
created_at. Concurrent claims are settled by the unique `_id`: one insert wins."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from mongoeco.errors import MongoEcoError
from pymongo.errors import DuplicateKeyError, PyMongoError

from pipelines.ports import IdempotencyRecord, StoreUnavailable

COLLECTION = "chat_idempotency"
TTL_SECONDS = 24 * 3600
CLAIM_ATTEMPTS = 3
_INDEXES = [{"key": {"created_at": 1}, "name": "ttl", "expireAfterSeconds": TTL_SECONDS}]
_DRIVER_ERRORS = (PyMongoError, MongoEcoError, sqlite3.Error, OSError)


@contextmanager
def _driver_errors() -> Iterator[None]:
    try:
        yield
    except DuplicateKeyError:
        raise
    except _DRIVER_ERRORS as error:
        raise StoreUnavailable(f"store error: {type(error).__name__}") from error


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _record(doc: dict[str, Any]) -> IdempotencyRecord:
    return IdempotencyRecord(
        user_id=doc["user_id"],
        key=doc["_id"],
        fingerprint=doc["fingerprint"],
        created_at=_utc(doc["created_at"]),
        answer=doc.get("answer"),
    )


class MongoIdempotency:
    def __init__(self, db: Any) -> None:
        self._collection = db[COLLECTION]
        self._db = db
        self._indexed = False

    async def _ensure_index(self) -> None:
        if not self._indexed:
            with _driver_errors():
                await self._db.command({"createIndexes": COLLECTION, "indexes": _INDEXES})
            self._indexed = True

    async def claim(
        self, record: IdempotencyRecord, *, stale_before: datetime, expired_before: datetime
    ) -> IdempotencyRecord | None:
        await self._ensure_index()
        doc = {
            "_id": record.key,
            "user_id": record.user_id,
            "fingerprint": record.fingerprint,
            "created_at": _utc(record.created_at),
            "answer": None,
        }
        replaceable = {
            "_id": record.key,
            "$or": [
                {"created_at": {"$lt": _utc(expired_before)}},
                {"answer": None, "created_at": {"$lt": _utc(stale_before)}},
            ],
        }
        with _driver_errors():
            for _ in range(CLAIM_ATTEMPTS):  # the holder may go away between insert and read
                await self._collection.delete_one(replaceable)
                try:
                    await self._collection.insert_one(doc)
                    return None
                except DuplicateKeyError:
                    pass
                found = await self._collection.find_one({"_id": record.key})
                if found is not None:
                    return _record(found)
        raise StoreUnavailable("the idempotency record kept changing")

    async def complete(self, user_id: str, key: str, answer: str) -> None:
        with _driver_errors():
            await self._collection.update_one(
                {"_id": key, "user_id": user_id}, {"$set": {"answer": answer}}
            )

    async def release(self, user_id: str, key: str) -> None:
        with _driver_errors():
            await self._collection.delete_one({"_id": key, "user_id": user_id, "answer": None})
