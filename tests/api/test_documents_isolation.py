"""Tenant isolation end to end (upload -> POST /v1/chat), expiry, and the TTL sweeper."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from pipelines.ports import DocumentRecord
from service.documents.sweeper import (
    Sweeper,
    SweepResult,
    start_sweeper,
    sweep_expired,
)
from tests.api.conftest import Kit
from tests.api.documents_kit import MovableClock, chat_sources, file_of, upload
from tests.fakes.store import FakeStore
from tests.fakes.vector_index import FakeVectorIndex

A, B = "asha@example.org", "bilal@example.org"
QUESTION = "What does the zebrafish aquarium permit require?"
B_TEXT = "Bilal's orchard lease says the walnut harvest belongs to the tenant farmer."


async def test_a_users_upload_is_found_only_by_that_user(kit: Kit) -> None:
    a, b = await kit.headers_for(A), await kit.headers_for(B, name="Bilal")
    assert (await upload(kit.client, a, "a-permit.txt", file_of("txt")[1])).status_code == 201
    assert (await upload(kit.client, b, "b-lease.txt", B_TEXT.encode())).status_code == 201

    a_sees = {s["source"] for s in await chat_sources(kit.client, a, QUESTION)}
    b_sees = {s["source"] for s in await chat_sources(kit.client, b, QUESTION)}
    b_own = {s["source"] for s in await chat_sources(kit.client, b, "Who owns the walnut harvest?")}

    assert "a-permit.txt" in a_sees  # retrieval finds it for its owner...
    assert "a-permit.txt" not in b_sees  # ...and never for anyone else
    assert "b-lease.txt" in b_own and "b-lease.txt" not in a_sees


async def test_expired_upload_is_invisible_then_swept(kit: Kit) -> None:
    clock = MovableClock.install(kit.container)
    a = await kit.headers_for(A)
    old = (await upload(kit.client, a, "a-permit.txt", file_of("txt")[1])).json()
    clock.offset = timedelta(hours=23)
    fresh = (await upload(kit.client, a, "a-fresh.md", file_of("md")[1])).json()
    before = await kit.index.count()
    assert "a-permit.txt" in {s["source"] for s in await chat_sources(kit.client, a, QUESTION)}

    clock.offset = timedelta(hours=24, seconds=1)  # past the first upload's TTL only
    sources = {s["source"] for s in await chat_sources(kit.client, a, QUESTION)}
    listed = [d["id"] for d in (await kit.client.get("/v1/documents", headers=a)).json()]
    assert "a-permit.txt" not in sources and "a-fresh.md" in sources
    assert listed == [fresh["id"]]
    assert await kit.index.count() == before  # invisible, not yet removed

    result = await kit.container.documents.sweep()
    assert result == SweepResult(vectors_removed=True, records_removed=1)
    assert await kit.index.count() == before - old["chunks"]
    assert old["id"] not in kit.store.documents and fresh["id"] in kit.store.documents
    assert {p.payload["doc_id"] for p in kit.index.points.values()} == {fresh["id"]}


def _record(doc_id: str, user_id: str, expires_at: datetime) -> DocumentRecord:
    return DocumentRecord(doc_id, user_id, f"{doc_id}.txt", 1, expires_at, expires_at)


class BrokenIndex(FakeVectorIndex):
    async def delete_expired(self, now: datetime) -> None:
        raise ConnectionError("index down")


async def test_sweep_keeps_records_while_vectors_cannot_be_removed() -> None:
    store, now = FakeStore(), datetime(2030, 1, 1).astimezone()
    await store.add_document(_record("d1", "u1", now - timedelta(seconds=1)))

    failed = await sweep_expired(BrokenIndex(), store, now)
    assert failed == SweepResult(vectors_removed=False, records_removed=0)
    assert "d1" in store.documents  # kept, so the next sweep tries again

    store.fail_writes = True
    partly = await sweep_expired(FakeVectorIndex(), store, now)
    assert partly == SweepResult(vectors_removed=True, records_removed=0, records_failed=1)
    store.fail_writes = False
    assert (await sweep_expired(FakeVectorIndex(), store, now)).records_removed == 1


async def test_sweeper_survives_failures_and_stops_cleanly() -> None:
    calls: list[int] = []

    async def flaky() -> SweepResult:
        calls.append(1)
        if len(calls) % 2:
            raise RuntimeError("boom")
        return SweepResult(vectors_removed=True, records_removed=0)

    sweeper = Sweeper(flaky, interval_s=0.01)
    sweeper.start()
    for _ in range(200):
        if sweeper.sweeps >= 4:
            break
        await asyncio.sleep(0.01)
    await sweeper.stop()
    assert sweeper.sweeps >= 4  # failing sweeps did not end the loop
    done = len(calls)
    await asyncio.sleep(0.05)
    assert len(calls) == done  # stopped


async def test_stop_waits_for_a_sweep_in_progress() -> None:
    started, finished = asyncio.Event(), []

    async def slow() -> SweepResult:
        started.set()
        await asyncio.sleep(0.05)
        finished.append(1)
        return SweepResult(vectors_removed=True, records_removed=0)

    sweeper = Sweeper(slow, interval_s=60)
    sweeper.start()
    await started.wait()
    await sweeper.stop()
    assert finished == [1]  # not torn down mid-sweep (the stores close right after)


async def test_app_sweeper_runs_once_at_startup(kit: Kit) -> None:
    clock = MovableClock.install(kit.container)
    a = await kit.headers_for(A)
    await upload(kit.client, a, "a-permit.txt", file_of("txt")[1])
    clock.offset = timedelta(days=2)

    sweeper = start_sweeper(kit.container.documents.sweep, 60.0)  # what the lifespan does
    for _ in range(200):
        if sweeper.sweeps:
            break
        await asyncio.sleep(0.01)
    await sweeper.stop()
    assert sweeper.interval_s == 60.0
    assert await kit.index.count() == 0 and kit.store.documents == {}
