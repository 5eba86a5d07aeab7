"""Who may serve with several workers, the outbox folder each process claims, and the header
that names the answering process."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pipelines.ports import ChatRecord
from service.adapters.store.history_outbox import OutboxChatStore
from service.bootstrap import replay_abandoned_outboxes
from service.cli.serve import workers_refusal
from service.http.instance import InstanceHeaderMiddleware
from service.outbox_slots import claim_outbox, slot_folder
from service.settings import Settings
from tests.fakes.store import FakeStore

SERVERS = {"qdrant_url": "http://qdrant:6333", "mongodb_uri": "mongodb://mongo/?replicaSet=rs0"}


def _settings(**values: Any) -> Settings:
    return Settings(_env_file=None, data_dir=Path("/srv/warden"), **values)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("values", "workers", "refused_with"),
    [
        ({}, 1, None),
        (SERVERS, 1, None),
        (SERVERS, 4, None),
        ({}, 2, "the vector index (/srv/warden/qdrant, Qdrant Edge) and the document store"),
        ({"qdrant_url": SERVERS["qdrant_url"]}, 2, "the document store (/srv/warden, mongoeco"),
        ({"mongodb_uri": SERVERS["mongodb_uri"]}, 3, "--workers 3 needs servers: the vector"),
        ({}, 0, "--workers must be at least 1"),
        (SERVERS, 0, "--workers must be at least 1"),
    ],
)
def test_several_workers_need_both_servers(
    values: dict[str, Any], workers: int, refused_with: str | None
) -> None:
    refusal = workers_refusal(_settings(**values), workers)
    if refused_with is None:
        assert refusal is None
    else:
        assert refusal is not None and refused_with in refusal


def test_each_process_claims_its_own_outbox_folder(tmp_path: Path) -> None:
    first, release_first = claim_outbox(tmp_path)
    second, release_second = claim_outbox(tmp_path)
    assert (first.name, second.name) == ("outbox", "outbox-1")

    release_first()  # a worker that died: the next one takes its folder and queued turns over
    third, release_third = claim_outbox(tmp_path)
    assert third == first
    release_second()
    release_third()


async def test_every_answer_names_the_process_that_served_it() -> None:
    app = FastAPI()

    @app.get("/ping")
    async def ping() -> dict[str, str]:
        return {}

    other = InstanceHeaderMiddleware(app)
    transport = httpx.ASGITransport(app=InstanceHeaderMiddleware(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        first, second = await client.get("/ping"), await client.get("/missing")
    instance = first.headers["x-warden-instance"]
    assert len(instance) == 12 and second.headers["x-warden-instance"] == instance
    assert other.instance != instance


async def _queue_turn(folder: Path, turn_id: str) -> None:
    down = FakeStore()
    down.fail_writes = True
    record = ChatRecord("u-1", "user", "question", datetime(2026, 3, 1, tzinfo=UTC), turn_id)
    await OutboxChatStore(down, folder).save_turn([record])


async def test_outboxes_of_workers_that_no_longer_run_are_replayed(tmp_path: Path) -> None:
    own, release_own = claim_outbox(tmp_path)  # this process: outbox
    busy, release_busy = claim_outbox(tmp_path)  # a live worker: outbox-1
    await _queue_turn(slot_folder(tmp_path, 3), "gone")  # a worker of a larger, older run
    await _queue_turn(busy, "live")
    store = FakeStore()

    assert await replay_abandoned_outboxes(store, tmp_path) == 1
    since = datetime(2026, 1, 1, tzinfo=UTC)
    stored = await store.recent_history("u-1", since=since, limit=10)
    assert [m.turn_id for m in stored] == ["gone"]
    assert await replay_abandoned_outboxes(store, tmp_path) == 0  # replayed once
    release_busy()
    release_own()
