"""Factories that open a MongoStore: embedded (mongoeco on SQLite) or a MongoDB server.

Embedded default: "inprocess" (mongoeco's own async client), chosen by measurement.
bench/store_modes.py, SQLite file already holding N messages, then 60 chat requests each
doing recent_history(limit=6) + save_turn (2 messages); p50 / p95 in ms, one run:

    N messages   mode        recent_history    save_turn
    0            inprocess     2.2 /   2.8       2.5 /   6.3
    0            wire          2.7 /   4.6       8.8 /  13.9
    1000         inprocess    10.1 /  12.1       3.9 /   6.5
    1000         wire         12.2 /  13.2      52.3 /  60.0
    4000         inprocess    37.6 /  38.9       4.2 /   5.9
    4000         wire         39.9 /  43.2     170.5 / 208.8

Reads cost about the same both ways; writes through the wire server grow with the collection
(its insert path checks the new document against every stored one: 13x slower at 1,000
messages, 40x at 4,000), while the in-process client's unordered insert_many stays flat.
Both modes share mongoeco 4.11's SQLite engine, where a query costs O(collection size): its
SQL matches fields through json_extract, which no index it creates covers, and after any
write its planner re-scans the collection (~10 ms per 1,000 messages here). So the history
window (and any history read within a user's newest 20 messages) reads a per-user head by
`_id` (mongo_recent), and `_index_ttl_entries` below removes the O(collection) part of each
insert; with both, per-message store work stays flat to 20,000 turns (bench_history.py).
Still O(collection) here: history pages reaching past the newest 20 (GET
/v1/chat/history's default limit is 100), `user_documents`, `expired_documents` (at 5,000
uploads 186 / 155 ms). Past that, use MongoDB (`open_server_store`). The wire mode
stays available (same file, same adapter) and is what the contract suite drives PyMongo
through.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from mongoeco import AsyncMongoClient as EmbeddedClient
from mongoeco.engines.sqlite import SQLiteEngine
from mongoeco.wire.proxy import AsyncMongoEcoProxyServer
from pymongo import AsyncMongoClient

from pipelines.ports import StoreUnavailable
from service.adapters.store.mongo_store import MongoStore

EmbeddedMode = Literal["inprocess", "wire"]
Compact = Callable[[], Awaitable[None]]
DEFAULT_EMBEDDED_MODE: EmbeddedMode = "inprocess"
DATABASE_NAME = "warden"
STORE_DIR = "mongoeco"


class EmbeddedStoreBusy(StoreUnavailable):
    """Another process (usually `warden serve`) holds the embedded store."""


async def open_embedded_store(
    data_dir: Path, mode: EmbeddedMode = DEFAULT_EMBEDDED_MODE
) -> MongoStore:
    """mongoeco's SQLite engine under `data_dir/mongoeco/`; `close()` releases everything.

    "inprocess": mongoeco's own async client. "wire": mongoeco's wire server on 127.0.0.1
    (ephemeral port) driven by PyMongo's AsyncMongoClient over a socket.
    Raises EmbeddedStoreBusy when another process has the store open.
    """
    if mode not in ("inprocess", "wire"):
        raise ValueError(f"unknown embedded store mode: {mode!r}")
    folder = Path(data_dir) / STORE_DIR
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.chmod(0o700)
    lock = _FolderLock(folder)
    path = folder / "warden.sqlite"
    _owner_only_files(path)
    engine = SQLiteEngine(str(path))

    async def compact() -> None:
        await asyncio.to_thread(compact_file, path)

    try:
        if mode == "inprocess":
            store = await _open_inprocess(engine, lock, compact)
        else:
            store = await _open_wire(engine, lock, compact)
    except BaseException:
        lock.release()
        raise
    try:
        _index_ttl_entries(folder / "warden.sqlite")
    except sqlite3.Error as error:
        await store.close()
        raise StoreUnavailable(f"store error: {type(error).__name__}") from error
    return store


def _owner_only_files(path: Path) -> None:
    """The database and its -wal/-shm/-journal files, owner-only. SQLite gives new files the
    database's mode, so creating it 0600 before the engine does covers those too."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm", f"{path.name}-journal"):
        with contextlib.suppress(FileNotFoundError):
            (path.parent / name).chmod(0o600)


def compact_file(path: Path) -> None:
    """Rebuilds the database without the pages deletions freed and empties its write-ahead
    log, so erased records leave no bytes behind (DELETE /v1/me). O(database size)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30, isolation_level=None)) as conn:
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _index_ttl_entries(path: Path) -> None:
    """Adds the index mongoeco 4.11 lacks: each insert into a collection with a TTL index
    runs `DELETE FROM ttl_index_entries WHERE collection_id = ? AND storage_key = ?`, and
    the table's keys lead with (collection_id, index_name), so SQLite scanned every TTL entry
    of the collection: 12 ms of a 15 ms two-message insert at 40,000 stored messages. With
    this index the insert stays flat (bench/bench_history.py). SQLite's planner picks it up
    by itself; mongoeco never reads or drops it. Runs after the engine made its schema."""
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as conn:
        conn.execute(
            "CREATE INDEX IF NOT EXISTS warden_ttl_entries_by_key "
            "ON ttl_index_entries (collection_id, storage_key)"
        )
        conn.commit()


async def _open_inprocess(engine: SQLiteEngine, lock: _FolderLock, compact: Compact) -> MongoStore:
    client = EmbeddedClient(engine)
    await client.__aenter__()

    async def release() -> None:
        try:
            await client.close()
        finally:
            lock.release()

    return await _ready(
        MongoStore(client[DATABASE_NAME], on_close=release, recent_heads=True, on_compact=compact)
    )


async def _open_wire(engine: SQLiteEngine, lock: _FolderLock, compact: Compact) -> MongoStore:
    server = AsyncMongoEcoProxyServer(engine=engine, host="127.0.0.1", port=0)
    await server.start()
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(
        server.address.uri, tz_aware=True, serverSelectionTimeoutMS=3000
    )

    async def release() -> None:
        try:
            await client.close()
            await server.close()
        finally:
            lock.release()

    return await _ready(
        MongoStore(client[DATABASE_NAME], on_close=release, recent_heads=True, on_compact=compact)
    )


async def open_server_store(
    uri: str,
    *,
    database: str | None = None,
    server_selection_timeout_ms: int = 2000,
    timeout_ms: int = 2000,
    require_reachable: bool = True,
) -> MongoStore:
    """PyMongo's AsyncMongoClient on a MongoDB deployment (the database named in the URI,
    else `database`, else "warden"). Short timeouts so a down store fails fast (the
    history outbox then keeps the turn). Raises StoreUnavailable if it cannot be reached,
    unless `require_reachable=False`: then the store opens anyway, `ping()` fails until the
    server answers, and the indexes are created on the first ping or write that finds it."""
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(
        uri,
        tz_aware=True,
        serverSelectionTimeoutMS=server_selection_timeout_ms,
        timeoutMS=timeout_ms,
    )
    store = MongoStore(
        client.get_default_database(default=database or DATABASE_NAME), on_close=client.close
    )
    if not require_reachable:
        with contextlib.suppress(StoreUnavailable):
            await store.ensure_indexes()
        return store
    return await _ready(store)


async def _ready(store: MongoStore) -> MongoStore:
    try:
        await store.ensure_indexes()
    except BaseException:
        await store.close()
        raise
    return store


class _FolderLock:
    """An exclusive advisory lock on `folder/LOCK`, held while the store is open."""

    def __init__(self, folder: Path) -> None:
        self._fd: int | None = os.open(folder / "LOCK", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            raise EmbeddedStoreBusy(
                f"the embedded store in {folder} is in use by another process "
                "(is `warden serve` running?)"
            ) from None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the descriptor drops the lock
