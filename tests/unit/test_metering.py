"""metered(): each work call through a port is counted once, housekeeping is not."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from pipelines.metering import CallKind, metered, metering
from pipelines.ports import ChatModel, Embedder, IndexPoint, Message, Store, VectorIndex
from tests.fakes.chat_model import FakeChatModel
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore, make_document, make_turn, make_user, utc_now
from tests.fakes.vector_index import FakeVectorIndex

NOW = utc_now()
VECTOR = [1.0, 0.0, 0.0]
MESSAGES = [Message("user", "hi")]
Call = Callable[[Any], Awaitable[Any]]


async def _drained_stream(model: Any) -> list[str]:
    return [piece async for piece in model.stream(MESSAGES, temperature=0.3, max_tokens=10)]


# (kind, the fake behind the port, method, one call of it, counted?)
CASES: list[tuple[CallKind, Callable[[], Any], str, Call, bool]] = [
    ("embed", FakeEmbedder, "embed_query", lambda p: p.embed_query("x"), True),
    ("embed", FakeEmbedder, "embed_documents", lambda p: p.embed_documents(["x", "y"]), True),
    ("vector", FakeVectorIndex, "upsert", lambda p: p.upsert([IndexPoint("a", VECTOR, {})]), True),
    (
        "vector",
        FakeVectorIndex,
        "dual_search",
        lambda p: p.dual_search(VECTOR, user_id="u-1", now=NOW, core_limit=3, personal_limit=1),
        True,
    ),
    ("vector", FakeVectorIndex, "core_documents", lambda p: p.core_documents(), True),
    ("vector", FakeVectorIndex, "delete_document", lambda p: p.delete_document("d"), True),
    (
        "vector",
        FakeVectorIndex,
        "delete_temporary",
        lambda p: p.delete_temporary("d", user_id="u-1"),
        True,
    ),
    ("vector", FakeVectorIndex, "delete_expired", lambda p: p.delete_expired(NOW), True),
    (
        "vector",
        FakeVectorIndex,
        "publish_temporary",
        lambda p: p.publish_temporary("d", user_id="u"),
        True,
    ),
    ("vector", FakeVectorIndex, "count", lambda p: p.count(), True),
    ("vector", FakeVectorIndex, "ping", lambda p: p.ping(), False),
    ("vector", FakeVectorIndex, "close", lambda p: p.close(), False),
    (
        "llm",
        FakeChatModel,
        "complete",
        lambda p: p.complete(MESSAGES, temperature=0.3, max_tokens=10),
        True,
    ),
    ("llm", FakeChatModel, "stream", _drained_stream, True),
    ("llm", FakeChatModel, "ping", lambda p: p.ping(), False),
    ("store", FakeStore, "save_turn", lambda p: p.save_turn(make_turn("u-1", "t-1", NOW)), True),
    (
        "store",
        FakeStore,
        "recent_history",
        lambda p: p.recent_history("u-1", since=NOW - timedelta(days=1), limit=5),
        True,
    ),
    ("store", FakeStore, "create_user", lambda p: p.create_user(make_user()), True),
    ("store", FakeStore, "user_by_email", lambda p: p.user_by_email("a@example.org"), True),
    (
        "store",
        FakeStore,
        "add_document",
        lambda p: p.add_document(make_document("d", "u-1", timedelta(hours=1))),
        True,
    ),
    ("store", FakeStore, "user_documents", lambda p: p.user_documents("u-1", now=NOW), True),
    ("store", FakeStore, "delete_document", lambda p: p.delete_document("d", user_id="u-1"), True),
    ("store", FakeStore, "expired_documents", lambda p: p.expired_documents(NOW), True),
    (
        "store",
        FakeStore,
        "mark_document_ready",
        lambda p: p.mark_document_ready("d", user_id="u"),
        True,
    ),
    ("store", FakeStore, "pending_documents", lambda p: p.pending_documents(NOW), True),
    ("store", FakeStore, "ping", lambda p: p.ping(), False),
    ("store", FakeStore, "close", lambda p: p.close(), False),
]
PROTOCOLS: dict[CallKind, type] = {
    "embed": Embedder,
    "vector": VectorIndex,
    "llm": ChatModel,
    "store": Store,
}


@pytest.mark.parametrize(
    ("kind", "fake", "method", "call", "counted"),
    CASES,
    ids=[f"{kind}.{method}" for kind, _, method, _, _ in CASES],
)
async def test_work_calls_are_counted_housekeeping_is_not(
    kind: CallKind, fake: Callable[[], Any], method: str, call: Call, counted: bool
) -> None:
    inner = fake()
    with metering() as calls:
        through_wrapper = await call(metered(inner, kind))
    expected = {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    expected[kind] = 1 if counted else 0
    assert calls.as_dict() == expected
    assert through_wrapper == await call(fake())  # what the port answers is passed on


@pytest.mark.parametrize("kind", list(PROTOCOLS))
def test_the_table_covers_every_method_of_each_port(kind: CallKind) -> None:
    methods = {name for name, _ in inspect.getmembers(PROTOCOLS[kind], inspect.isfunction)}
    in_table = {method for case_kind, _, method, _, _ in CASES if case_kind == kind}
    assert in_table == {name for name in methods if not name.startswith("_")}


def test_the_embedder_dimension_passes_through() -> None:
    assert metered(FakeEmbedder(dimension=7), "embed").dimension == 7


async def test_a_plain_def_stream_is_counted_and_its_stream_passed_on() -> None:
    model = FakeChatModel(replies=["one two"])
    port = metered(model, "llm")
    messages = [Message("user", "hi")]
    with metering() as calls:
        stream = port.stream(messages, temperature=0.3, max_tokens=10)
        assert calls.llm == 1  # counted when asked for, like `complete`
        assert [piece async for piece in stream] == ["one ", "two"]
        await port.complete(messages, temperature=0.3, max_tokens=10)
    assert calls.as_dict() == {"llm": 2, "embed": 0, "vector": 0, "store": 0}
    completion = getattr(stream, "completion", None)  # the ChatStream itself, untouched
    assert completion is not None and completion.text == "one two"


async def test_nothing_is_counted_outside_a_metering_block() -> None:
    port = metered(FakeChatModel(), "llm")
    [piece async for piece in port.stream([], temperature=0.3, max_tokens=10)]
    with metering() as calls:
        pass
    assert calls.llm == 0
