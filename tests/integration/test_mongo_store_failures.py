"""MongoStore and its factories when things go wrong: locks, unreachable or vanished servers."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from pipelines.ports import AlreadyExists, StoreUnavailable
from service.adapters.store.mongo_open import (
    EmbeddedStoreBusy,
    open_embedded_store,
    open_server_store,
)
from service.adapters.store.mongo_store import MongoStore
from tests.fakes.store import make_turn, make_user, utc_now
from tests.wire_server import WireServerThread


def _closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_embedded_store_is_held_by_one_opener(tmp_path: Path) -> None:
    store = await open_embedded_store(tmp_path, "inprocess")
    try:
        with pytest.raises(EmbeddedStoreBusy, match="in use"):
            await open_embedded_store(tmp_path, "wire")
    finally:
        await store.close()
    again = await open_embedded_store(tmp_path, "wire")
    await again.close()


async def test_unreachable_server_is_store_unavailable() -> None:
    port = _closed_port()
    with pytest.raises(StoreUnavailable):
        await open_server_store(
            f"mongodb://127.0.0.1:{port}/", server_selection_timeout_ms=200, timeout_ms=300
        )


async def test_a_failing_driver_call_is_store_unavailable(tmp_path: Path) -> None:
    server = WireServerThread(tmp_path)
    uri = await asyncio.to_thread(server.start)
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri, serverSelectionTimeoutMS=200)
    store = MongoStore(client["warden"], on_close=client.close)
    try:
        await store.ping()
        await asyncio.to_thread(server.close)  # the server goes away mid-life
        with pytest.raises(StoreUnavailable):
            await store.save_turn(make_turn("u-1", "t-1", utc_now()))
        with pytest.raises(StoreUnavailable):
            await store.recent_history("u-1", since=utc_now(), limit=6)
        with pytest.raises(StoreUnavailable):
            await store.ping()
    finally:
        await store.close()


async def test_a_store_opened_while_down_reports_it_and_indexes_later(tmp_path: Path) -> None:
    port = _closed_port()
    down = await open_server_store(
        f"mongodb://127.0.0.1:{port}/",
        server_selection_timeout_ms=200,
        timeout_ms=300,
        require_reachable=False,
    )
    with pytest.raises(StoreUnavailable):
        await down.ping()
    await down.close()

    server = WireServerThread(tmp_path)
    uri = await asyncio.to_thread(server.start)
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri, serverSelectionTimeoutMS=3000)
    late = MongoStore(client["warden"], on_close=client.close)  # no ensure_indexes() call
    try:
        await late.create_user(make_user())
        with pytest.raises(AlreadyExists):  # the unique index was made before it was needed
            await late.create_user(make_user("u-2", "ASHA.rao@example.com"))
    finally:
        await late.close()
        await asyncio.to_thread(server.close)
