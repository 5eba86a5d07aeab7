"""Opens both ends of `warden migrate`: a snapshot of the embedded deployment in `data_dir`
(copied into a scratch folder, so the source is only ever read) and the server targets."""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from service.migration.ports import Plan, Route
from service.settings import Settings

QDRANT_DIR, STORE_DIR, OUTBOX = "qdrant", "mongoeco", "outbox/history-outbox.jsonl"
LOCAL_QDRANT = "file:"  # --to-qdrant file:PATH: qdrant-client's local mode (trials, tests)
CARRIED_BY_HAND = {
    "jwt_secret": "set WARDEN_JWT_SECRET to its content on every replica, or users sign in again",
    "allowlist.json": "copy it into each replica's WARDEN_DATA_DIR (or run `warden ingest` there)",
    "calibration.json": "copy it into WARDEN_CONFIG_DIR or each replica's WARDEN_DATA_DIR",
    # the history is copied sealed: without its key the values behind the placeholders are lost
    "data_key": "set WARDEN_DATA_KEY to its content on every replica (or copy the file into "
    "each replica's WARDEN_DATA_DIR, mode 0600), or the history shows placeholders only",
}


class MigrationRefused(Exception):
    """The source cannot be migrated as it is (the message says why and what to do)."""


def fingerprint(*folders: Path) -> str:
    """Names, sizes and modification times of every file: a changed source restarts a copy."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            stat = path.stat()
            digest.update(
                f"{path.relative_to(folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
            )
    return digest.hexdigest()[:32]


def source_notes(data_dir: Path) -> list[str]:
    """The files of the data folder that live outside the stores, and what to do with each."""
    return [
        f"{name}: {todo}" for name, todo in CARRIED_BY_HAND.items() if (data_dir / name).exists()
    ]


def _check_source(data_dir: Path) -> None:
    if not data_dir.is_dir():
        raise MigrationRefused(f"no embedded deployment at {data_dir} (set WARDEN_DATA_DIR)")
    outbox = data_dir / OUTBOX
    if outbox.exists() and outbox.read_bytes().strip():
        raise MigrationRefused(
            f"{outbox} holds chat turns not yet in the store: start `warden serve` on the "
            "embedded stores once (it replays them), stop it, then migrate"
        )


@asynccontextmanager
async def open_migration(
    settings: Settings, *, to_qdrant: str, to_mongodb: str, database: str | None = None
) -> AsyncIterator[Plan]:
    """Snapshot + targets for one run; everything opened is closed (and the scratch copy
    removed) on the way out. Raises MigrationRefused, DataDirBusy or StoreUnavailable."""
    from service.adapters.store.mongo_copy import MongoCopyTarget, StoreSnapshot
    from service.adapters.vector.qdrant_copy import EdgeSnapshot, QdrantCopyTarget, edge_dimension
    from service.process_lock import ReadOnlyHold

    data_dir = settings.data_dir
    _check_source(data_dir)
    edge, store = data_dir / QDRANT_DIR, data_dir / STORE_DIR
    async with AsyncExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="warden-migrate-")))
        with ReadOnlyHold(data_dir):  # only while copying: the snapshot is read afterwards
            source_id = fingerprint(edge, store)
            vectors = await asyncio.to_thread(EdgeSnapshot.take, edge, scratch / QDRANT_DIR)
            stack.push_async_callback(vectors.close)
            records = await StoreSnapshot.take(store, scratch / STORE_DIR)
            stack.push_async_callback(records.close)
        dimension = edge_dimension(edge) or 384
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        if to_qdrant.startswith(LOCAL_QDRANT):  # qdrant-client's local mode
            path = to_qdrant.removeprefix(LOCAL_QDRANT)
            memory = path == ":memory:"
            index = await QdrantCopyTarget.connect(
                dimension=dimension,
                location=path if memory else None,
                path=None if memory else path,
            )
        else:
            index = await QdrantCopyTarget.connect(dimension=dimension, url=to_qdrant, api_key=key)
        stack.push_async_callback(index.close)
        target = await MongoCopyTarget.connect(
            to_mongodb, database=database or settings.mongodb_database
        )
        stack.push_async_callback(target.close)
        routes = [Route(vectors, index)]
        routes += [Route(stream, target.sink(stream.name)) for stream in records.streams]
        yield Plan(routes, target.checkpoint, source_id, source_notes(data_dir))
