"""One contract for every IdempotencyStore: in memory, and on the MongoStore database through
mongoeco's own client and through PyMongo over mongoeco's wire server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pipelines.ports import IdempotencyRecord, IdempotencyStore
from service.adapters.store.memory_idempotency import MemoryIdempotency
from service.adapters.store.mongo_idempotency import COLLECTION, TTL_SECONDS, MongoIdempotency
from service.adapters.store.mongo_open import open_embedded_store
from tests.fakes.store import utc_now

KINDS = ["memory", "mongoeco-inprocess", "mongoeco-wire"]
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@pytest.fixture(params=KINDS)
async def keys(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[IdempotencyStore]:
    if request.param == "memory":
        yield MemoryIdempotency()
        return
    store = await open_embedded_store(tmp_path, request.param.removeprefix("mongoeco-"))
    try:
        yield MongoIdempotency(store.database)
    finally:
        await store.close()


def record(
    key: str = "k-1", user: str = "u-1", fingerprint: str = "f-1", age: timedelta = timedelta()
) -> IdempotencyRecord:
    return IdempotencyRecord(user, key, fingerprint, utc_now() - age)


async def claim(keys: IdempotencyStore, held: IdempotencyRecord) -> IdempotencyRecord | None:
    now = utc_now()
    return await keys.claim(held, stale_before=now - HOUR, expired_before=now - DAY)


async def test_the_first_claim_wins_and_a_second_sees_it_pending(keys: IdempotencyStore) -> None:
    assert await claim(keys, record()) is None
    held = await claim(keys, record(fingerprint="f-2"))

    assert held is not None
    assert (held.user_id, held.key, held.fingerprint, held.answer) == ("u-1", "k-1", "f-1", None)


async def test_a_completed_claim_gives_its_answer(keys: IdempotencyStore) -> None:
    first = record()
    await claim(keys, first)
    await keys.complete("u-1", "k-1", '{"response": "42"}')
    held = await claim(keys, record())

    assert held is not None and held.answer == '{"response": "42"}'
    assert abs(held.created_at - first.created_at) < timedelta(milliseconds=2)


async def test_keys_are_independent(keys: IdempotencyStore) -> None:
    assert await claim(keys, record("k-1")) is None
    assert await claim(keys, record("k-2")) is None


async def test_a_released_claim_can_be_claimed_again(keys: IdempotencyStore) -> None:
    await claim(keys, record())
    await keys.release("u-1", "k-1")
    assert await claim(keys, record(fingerprint="f-2")) is None


async def test_release_and_complete_touch_only_the_users_own_record(
    keys: IdempotencyStore,
) -> None:
    await claim(keys, record())
    await keys.release("u-2", "k-1")
    await keys.complete("u-2", "k-1", "{}")
    held = await claim(keys, record())
    assert held is not None and held.answer is None


async def test_a_completed_record_is_never_released(keys: IdempotencyStore) -> None:
    await claim(keys, record())
    await keys.complete("u-1", "k-1", "{}")
    await keys.release("u-1", "k-1")
    held = await claim(keys, record())
    assert held is not None and held.answer == "{}"


async def test_a_stale_pending_claim_is_taken_over_a_stale_answer_is_not(
    keys: IdempotencyStore,
) -> None:
    await claim(keys, record("pending", age=2 * HOUR))
    await claim(keys, record("answered", age=2 * HOUR))
    await keys.complete("u-1", "answered", "{}")

    assert await claim(keys, record("pending")) is None
    answered = await claim(keys, record("answered"))
    assert answered is not None and answered.answer == "{}"


async def test_an_expired_record_counts_as_gone(keys: IdempotencyStore) -> None:
    await claim(keys, record(age=25 * HOUR))
    await keys.complete("u-1", "k-1", "{}")
    assert await claim(keys, record()) is None


async def test_of_concurrent_claims_exactly_one_wins(keys: IdempotencyStore) -> None:
    results = await asyncio.gather(*(claim(keys, record(fingerprint=f"f-{i}")) for i in range(8)))
    assert sum(r is None for r in results) == 1
    assert len({r.fingerprint for r in results if r is not None}) == 1  # all saw the winner


async def test_records_expire_through_a_ttl_index(tmp_path: Path) -> None:
    store = await open_embedded_store(tmp_path)
    try:
        keys = MongoIdempotency(store.database)
        await claim(keys, record())
        indexes: list[dict[str, Any]] = await store.database[COLLECTION].list_indexes().to_list()
        ttl = [i for i in indexes if "expireAfterSeconds" in i]
        assert [(dict(i["key"]), i["expireAfterSeconds"]) for i in ttl] == [
            ({"created_at": 1}, TTL_SECONDS)
        ]
        await claim(keys, record("old", age=25 * HOUR))  # inserted already past its TTL
        await claim(keys, record("k-2"))  # a write lets the TTL run
        assert await store.database[COLLECTION].find_one({"_id": "old"}) is None
    finally:
        await store.close()
