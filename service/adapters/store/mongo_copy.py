"""`warden migrate`'s store ends: a snapshot of the embedded store (mongoeco on SQLite) as
the source, a MongoDB database (PyMongo) as the target.

The store folder is copied into a scratch folder and only the copy is opened (mongoeco
writes its schema and planner state into the file it opens). Every collection is copied
document by document with its own `_id` (an upsert: writing it twice leaves one), except
the embedded store's own helpers (`chat_recent` heads and their marker, rebuilt from
`chat_history` where needed). History older than its TTL and expired upload records are
not copied: the target's TTL monitor would drop them. Progress lives in the target's
`warden_migration` collection until a run ends verified."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from mongoeco import AsyncMongoClient as EmbeddedClient
from mongoeco.engines.sqlite import SQLiteEngine
from pymongo import AsyncMongoClient, ReplaceOne

from service.adapters.store.mongo_open import DATABASE_NAME
from service.adapters.store.mongo_recent import COLLECTION as RECENT_HEADS
from service.adapters.store.mongo_recent import META_COLLECTION
from service.adapters.store.mongo_store import HISTORY_TTL_SECONDS, MongoStore
from service.adapters.store.mongo_store import _driver_errors as driver_errors
from service.migration.ports import Batch

CHECKPOINT_COLLECTION = "warden_migration"
CHECKPOINT_ID = "progress"
EMBEDDED_ONLY = frozenset({RECENT_HEADS, META_COLLECTION})
STORE_LOCK = "LOCK"
# collection -> (date field, offset): a document is live while field > now + offset
LIVE_RULES: dict[str, tuple[str, timedelta]] = {
    "chat_history": ("created_at", -timedelta(seconds=HISTORY_TTL_SECONDS)),
    "documents": ("expires_at", timedelta(0)),
}
COPY_ORDER = ("users", "documents", "chat_history")  # then any other, by name


def live_filter(collection: str, now: datetime) -> dict[str, Any]:
    rule = LIVE_RULES.get(collection)
    if rule is None:
        return {}
    field, offset = rule
    return {field: {"$gt": now + offset}}


def copied_collections(names: Sequence[str]) -> list[str]:
    """The collections a migration copies, in copy order."""
    wanted = [n for n in names if n not in EMBEDDED_ONLY and n != CHECKPOINT_COLLECTION]
    known = [n for n in COPY_ORDER if n in wanted]
    return known + sorted(n for n in wanted if n not in COPY_ORDER)


class CollectionStream:
    """One collection of the snapshot, in `_id` order, live documents only."""

    def __init__(self, db: Any, name: str) -> None:
        self._db = db
        self.name = name

    async def count(self, now: datetime) -> int:
        return int(await self._db[self.name].count_documents(live_filter(self.name, now)))

    async def batches(self, resume: Any, size: int, now: datetime) -> AsyncIterator[Batch]:
        query = live_filter(self.name, now)
        if resume is not None:
            query = {"$and": [query, {"_id": {"$gt": resume}}]}
        batch: list[dict[str, Any]] = []
        async for doc in self._db[self.name].find(query).sort("_id", 1):  # one scan
            batch.append(doc)
            if len(batch) >= size:
                yield Batch(batch, batch[-1]["_id"])
                batch = []
        if batch:
            yield Batch(batch, batch[-1]["_id"])


class StoreSnapshot:
    """The snapshot's collections as streams. Build with `take`; `close()`."""

    def __init__(self, client: Any, streams: list[CollectionStream]) -> None:
        self._client = client
        self.streams = streams

    @classmethod
    async def take(cls, folder: Path, scratch: Path) -> StoreSnapshot:
        if not (folder / "warden.sqlite").exists():
            return cls(None, [])
        shutil.copytree(folder, scratch, ignore=shutil.ignore_patterns(STORE_LOCK))
        client = EmbeddedClient(SQLiteEngine(str(scratch / "warden.sqlite")))
        await client.__aenter__()
        try:
            db = client[DATABASE_NAME]
            names = copied_collections(await db.list_collection_names())
        except BaseException:
            await client.close()
            raise
        return cls(client, [CollectionStream(db, name) for name in names])

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()


class CollectionSink:
    def __init__(self, db: Any, name: str) -> None:
        self._db = db
        self.name = name

    async def write(self, items: Sequence[dict[str, Any]]) -> None:
        if items:
            writes = [ReplaceOne({"_id": d["_id"]}, d, upsert=True) for d in items]
            with driver_errors():
                await self._db[self.name].bulk_write(writes, ordered=False)

    async def count(self, now: datetime) -> int:
        with driver_errors():
            return int(await self._db[self.name].count_documents(live_filter(self.name, now)))


class MongoCheckpoint:
    def __init__(self, db: Any) -> None:
        self._collection = db[CHECKPOINT_COLLECTION]

    async def load(self) -> dict[str, Any] | None:
        with driver_errors():
            found: dict[str, Any] | None = await self._collection.find_one({"_id": CHECKPOINT_ID})
        return found

    async def save(self, progress: dict[str, Any]) -> None:
        with driver_errors():
            await self._collection.replace_one({"_id": CHECKPOINT_ID}, progress, upsert=True)

    async def clear(self) -> None:
        with driver_errors():
            await self._collection.delete_one({"_id": CHECKPOINT_ID})


class MongoCopyTarget:
    """The target database, with the service's indexes made first. `close()`."""

    def __init__(self, client: AsyncMongoClient[dict[str, Any]], db: Any) -> None:
        self._client = client
        self._db = db
        self.checkpoint = MongoCheckpoint(db)

    @classmethod
    async def connect(cls, uri: str, *, database: str, timeout_ms: int = 10_000) -> MongoCopyTarget:
        client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(
            uri, tz_aware=True, serverSelectionTimeoutMS=timeout_ms, timeoutMS=timeout_ms * 3
        )
        db = client.get_default_database(default=database)
        try:
            await MongoStore(db).ensure_indexes()
        except BaseException:
            await client.close()
            raise
        return cls(client, db)

    def sink(self, name: str) -> CollectionSink:
        return CollectionSink(self._db, name)

    async def close(self) -> None:
        await self._client.close()
