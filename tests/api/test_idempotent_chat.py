"""POST /v1/chat and /v1/chat/stream with an Idempotency-Key: a retry is answered the same and
stores nothing new; other users and other messages are told apart; concurrent retries run once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

import httpx
import pytest

from pipelines.ports import StoreUnavailable
from tests.api.conftest import Kit, KitFactory
from tests.api.test_chat import ABUSIVE
from tests.api.test_stream import (
    QUESTION,
    REPLY,
    RESTORED,
    ThreeCharPieces,
    WaitsToAnswer,
    parse_events,
    seeded,
)
from tests.fakes.chat_model import FakeChatModel

KEY = "3f1c9a52-7d4e-4b8a-9c2f-5e6d7a8b9c0d"


def keyed(headers: dict[str, str], key: str = KEY) -> dict[str, str]:
    return {**headers, "Idempotency-Key": key}


async def chat(
    kit: Kit, headers: dict[str, str], message: str = QUESTION, path: str = "/v1/chat"
) -> httpx.Response:
    return await kit.client.post(path, json={"message": message}, headers=headers)


async def test_a_retry_gets_the_same_answer_and_stores_nothing_new(make_kit: KitFactory) -> None:
    model = FakeChatModel(replies=[REPLY, "a second, different answer"])
    kit = await seeded(make_kit, chat_model=model)
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))

    first = await chat(kit, headers)
    again = await chat(kit, headers)

    assert first.status_code == again.status_code == 200, again.text
    assert first.json()["response"] == RESTORED
    assert again.content == first.content  # byte for byte, trace id and timings too
    assert len(model.calls) == 1 and len(kit.store.chats) == 2  # one turn: question, answer
    assert len(kit.tracer.events) == 1


async def test_the_stored_answer_holds_no_raw_text(make_kit: KitFactory) -> None:
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[REPLY]))
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))
    assert (await chat(kit, headers)).status_code == 200

    (record,) = kit.container.idempotent.records.records.values()  # type: ignore[attr-defined]
    assert record.answer and "asha" not in repr(record).lower() and KEY not in repr(record)


async def test_another_user_with_the_same_key_is_independent(make_kit: KitFactory) -> None:
    model = FakeChatModel(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    asha = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))
    ravi = keyed(await kit.headers_for("ravi@example.org", name="Ravi"))

    first, second = await chat(kit, asha), await chat(kit, ravi)

    assert first.status_code == second.status_code == 200
    assert first.json()["trace_id"] != second.json()["trace_id"]
    assert len(model.calls) == 2 and len(kit.store.chats) == 4


async def test_the_same_key_with_another_message_is_409(make_kit: KitFactory) -> None:
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[REPLY]))
    headers = keyed(await kit.headers_for("asha@example.org"))
    await chat(kit, headers)
    for path in ("/v1/chat", "/v1/chat/stream"):
        response = await chat(kit, headers, "What is an FIR?", path)
        assert response.status_code == 409
        assert response.json()["error"] == "idempotency_key_reused"
    assert len(kit.store.chats) == 2


@pytest.mark.parametrize(
    "key",
    ["short", "x" * 129, "has a space in it ok", "ключ-ключ-ключ-ключ", "a" * 15 + "\t", ""],
)
async def test_a_malformed_key_is_422_before_any_work(kit: Kit, key: str) -> None:
    headers = keyed(await kit.headers_for("asha@example.org"), key)
    for path in ("/v1/chat", "/v1/chat/stream"):
        response = await kit.client.post(
            path, json={"message": QUESTION}, headers={k: v.encode() for k, v in headers.items()}
        )
        assert response.status_code == 422, (path, response.text)
        assert response.json()["error"] == "invalid_idempotency_key"
        assert key not in response.text or not key
    assert kit.embedder.calls == 0 and not kit.store.chats


async def test_concurrent_retries_run_the_chat_once(make_kit: KitFactory) -> None:
    model = WaitsToAnswer(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))

    streamed = asyncio.create_task(chat(kit, headers, path="/v1/chat/stream"))
    await model.asked.wait()  # the first request is running
    retries = [asyncio.create_task(chat(kit, headers)) for _ in range(3)]
    await asyncio.sleep(0.3)  # the retries wait on the claim
    assert not any(task.done() for task in retries)
    model.release.set()
    first, *others = await asyncio.gather(streamed, *retries)

    done = parse_events(first.text)[-1]
    assert done[0] == "done" and done[1]["response"] == RESTORED
    assert all(o.status_code == 200 and o.json() == done[1] for o in others)
    assert len(model.calls) == 1 and len(kit.store.chats) == 2


async def test_a_retry_still_running_too_long_is_409(make_kit: KitFactory) -> None:
    model = WaitsToAnswer(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    kit.container.idempotent._wait_s = 0.2  # noqa: SLF001 - a short wait for the test
    headers = keyed(await kit.headers_for("asha@example.org"))
    streamed = asyncio.create_task(chat(kit, headers, path="/v1/chat/stream"))
    await model.asked.wait()

    retry = await chat(kit, headers)
    model.release.set()
    await streamed

    assert retry.status_code == 409 and retry.headers["retry-after"] == "1"
    assert retry.json()["error"] == "idempotency_key_in_use"


async def test_a_finished_stream_is_replayed_as_a_stream(make_kit: KitFactory) -> None:
    model = ThreeCharPieces(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))

    first = parse_events((await chat(kit, headers, path="/v1/chat/stream")).text)
    again = parse_events((await chat(kit, headers, path="/v1/chat/stream")).text)
    plain = (await chat(kit, headers)).json()

    assert len([e for e in first if e[0] == "token"]) > 1
    assert [name for name, _ in again] == ["meta", "token", "done"]
    assert again[0][1] == first[0][1]  # meta: the same trace id and route
    assert again[1][1] == {"text": RESTORED}
    assert again[-1] == first[-1] and plain == first[-1][1]
    assert len(model.calls) == 1 and len(kit.store.chats) == 2


def fail_once(kit: Kit) -> None:
    """The next chat fails unexpectedly (as a bug or a dead dependency would)."""
    pipeline = kit.container.chat.pipeline
    real = pipeline.answer

    async def failing(*args: object, **kwargs: object) -> None:
        pipeline.answer = real  # type: ignore[method-assign]
        raise RuntimeError("fell over")

    pipeline.answer = failing  # type: ignore[method-assign]


@pytest.mark.parametrize("path", ["/v1/chat", "/v1/chat/stream"])
async def test_a_failed_chat_frees_its_key(make_kit: KitFactory, path: str) -> None:
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[REPLY]))
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))
    fail_once(kit)
    failed = await chat(kit, headers, path=path)
    if path == "/v1/chat":
        assert failed.status_code == 500
    else:
        assert parse_events(failed.text)[-1][0] == "error"

    retry = await chat(kit, headers)
    assert retry.status_code == 200 and retry.json()["response"] == RESTORED
    assert len(kit.store.chats) == 2


async def test_a_rerun_after_a_crash_stores_its_turn_once(make_kit: KitFactory) -> None:
    """The process died after saving the turn, before storing the answer: once the claim is
    stale, a retry runs again, and the history keeps one turn."""
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[REPLY]))
    headers = keyed(await kit.headers_for("asha@example.org", name="Asha Rao"))
    assert (await chat(kit, headers)).status_code == 200
    records = kit.container.idempotent.records.records  # type: ignore[attr-defined]
    (key, record) = next(iter(records.items()))
    records[key] = replace(record, answer=None, created_at=record.created_at - timedelta(hours=1))

    assert (await chat(kit, headers)).status_code == 200
    assert len(kit.store.chats) == 2


async def test_a_rejected_message_with_a_key_is_answered_once(kit: Kit) -> None:
    headers = keyed(await kit.headers_for("asha@example.org"))
    first, again = await chat(kit, headers, ABUSIVE), await chat(kit, headers, ABUSIVE)
    assert first.json()["route"] == "reject" and again.content == first.content


class DownRecords:
    """An IdempotencyStore whose database is down."""

    async def claim(self, *args: object, **kwargs: object) -> None:
        raise StoreUnavailable("down")

    async def complete(self, *args: object) -> None:
        raise StoreUnavailable("down")

    async def release(self, *args: object) -> None:
        raise StoreUnavailable("down")


async def test_a_key_that_cannot_be_claimed_is_503_and_runs_nothing(make_kit: KitFactory) -> None:
    model = FakeChatModel(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    kit.container.idempotent.records = DownRecords()
    headers = await kit.headers_for("asha@example.org")
    for path in ("/v1/chat", "/v1/chat/stream"):
        response = await chat(kit, keyed(headers), path=path)
        assert response.status_code == 503
        assert response.json()["error"] == "store_unavailable"
    assert not model.calls and not kit.store.chats
    assert (await chat(kit, headers)).status_code == 200  # without a key, chats go on
