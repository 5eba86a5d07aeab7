"""The AccountData port (pipelines/ports/accounts.py) on every real store: mongoeco in-process,
PyMongo over mongoeco's wire, and PyMongo (naive dates) to a wire server in its own thread.
One user's records are erased without touching another's; access rules round-trip with
timezone-aware times; history rewrites replace messages in place (heads included)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from pipelines.ports import AccessRule, AccountData, Store, access_key
from service.adapters.store.mongo_open import open_embedded_store
from service.adapters.store.mongo_store import MongoStore
from tests.fakes.store import make_document, make_turn, make_user, utc_now
from tests.wire_server import WireServerThread

SINCE = datetime(2000, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["mongoeco-inprocess", "mongoeco-wire", "pymongo-thread"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MongoStore]:
    kind = request.param
    if kind.startswith("mongoeco-"):
        embedded = await open_embedded_store(tmp_path, kind.removeprefix("mongoeco-"))  # type: ignore[arg-type]
        yield embedded
        await embedded.close()
        return
    server = WireServerThread(tmp_path)
    uri = await asyncio.to_thread(server.start)
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri, serverSelectionTimeoutMS=3000)
    wired = MongoStore(client["warden"], on_close=client.close)
    try:
        await wired.ensure_indexes()
        yield wired
    finally:
        await wired.close()
        await asyncio.to_thread(server.close)


async def _fill(store: Store, user_id: str, email: str) -> None:
    await store.create_user(make_user(user_id, email))
    await store.save_turn(make_turn(user_id, f"{user_id}-t1", utc_now()))
    await store.add_document(make_document(f"{user_id}-live", user_id, timedelta(hours=1)))
    await store.add_document(make_document(f"{user_id}-old", user_id, timedelta(hours=-1)))


async def test_erasing_one_user_keeps_the_other(store: MongoStore) -> None:
    assert isinstance(store, AccountData)
    await _fill(store, "u1", "one@example.org")
    await _fill(store, "u2", "two@example.org")
    assert sorted(await store.history_users()) == ["u1", "u2"]
    assert sorted(await store.erase_documents("u1")) == ["u1-live", "u1-old"]
    assert await store.erase_history("u1") == 2
    assert await store.delete_user("u1") and not await store.delete_user("u1")
    await store.compact()
    assert await store.user_by_id("u1") is None
    assert await store.recent_history("u1", since=SINCE, limit=10) == []
    assert await store.erase_documents("u1") == []
    assert [u.id for u in await store.list_users()] == ["u2"]
    assert len(await store.recent_history("u2", since=SINCE, limit=10)) == 2
    assert len(await store.history_records("u2")) == 2
    assert [d.id for d in await store.user_documents("u2", now=utc_now())] == ["u2-live"]


async def test_access_rules_round_trip(store: MongoStore) -> None:
    at = datetime(2026, 5, 1, 8, 30, 15, 250_000, tzinfo=UTC)
    await store.put_access_rule(AccessRule(access_key("u1"), revoked_before=at))
    await store.put_access_rule(AccessRule(access_key("u2"), disabled=True))
    await store.put_access_rule(AccessRule(access_key("u1"), revoked_before=at, disabled=True))
    rules = {r.key: r for r in await store.access_rules()}
    assert rules[access_key("u1")] == AccessRule(access_key("u1"), at, True)
    assert rules[access_key("u2")] == AccessRule(access_key("u2"), None, True)


async def test_history_rewrites_replace_in_place(store: MongoStore) -> None:
    await store.save_turn(make_turn("u1", "t1", utc_now()))
    records = await store.history_records("u1")
    changed = [replace(r, content=f"<X_1> {r.role}", sealed="v1.k.body") for r in records]
    await store.rewrite_history("u1", changed)
    assert await store.history_records("u1") == changed
    assert await store.recent_history("u1", since=SINCE, limit=6) == changed  # heads too
