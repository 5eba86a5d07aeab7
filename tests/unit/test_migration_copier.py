"""The migration copier over in-memory ends: batches, checkpoints, resume, verification; and
the pure selection rules of its adapters (what is live, which collections go)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from service.adapters.store.mongo_copy import copied_collections, live_filter
from service.adapters.vector.qdrant_copy import is_live
from service.migration.copier import migrate
from service.migration.ports import Batch, Plan, Route

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class ListStream:
    def __init__(self, name: str, items: list[str]) -> None:
        self.name = name
        self.items = items
        self.starts: list[Any] = []

    async def count(self, now: datetime) -> int:
        return len(self.items)

    async def batches(self, resume: Any, size: int, now: datetime) -> AsyncIterator[Batch]:
        self.starts.append(resume)
        start = 0 if resume is None else int(resume)
        for at in range(start, len(self.items), size):
            yield Batch(self.items[at : at + size], at + size)


class DictSink:
    def __init__(self, fail_on_write: int | None = None) -> None:
        self.items: dict[str, str] = {}
        self.writes = 0
        self.fail_on_write = fail_on_write

    async def write(self, items: Sequence[str]) -> None:
        self.writes += 1
        if self.writes == self.fail_on_write:
            self.items.update({i: i for i in items[: len(items) // 2]})  # half a batch landed
            raise ConnectionError("target went away")
        self.items.update({i: i for i in items})

    async def count(self, now: datetime) -> int:
        return len(self.items)


class MemoryCheckpoint:
    def __init__(self) -> None:
        self.saved: dict[str, Any] | None = None
        self.saves = 0

    async def load(self) -> dict[str, Any] | None:
        return None if self.saved is None else _copy(self.saved)

    async def save(self, progress: dict[str, Any]) -> None:
        self.saves += 1
        self.saved = _copy(progress)

    async def clear(self) -> None:
        self.saved = None


def _copy(progress: dict[str, Any]) -> dict[str, Any]:
    return {
        k: {n: dict(s) for n, s in v.items()} if k == "streams" else v for k, v in progress.items()
    }


def plan_for(
    streams: list[ListStream],
    sinks: list[DictSink],
    checkpoint: MemoryCheckpoint,
    source: str = "s1",
) -> Plan:
    return Plan([Route(s, k) for s, k in zip(streams, sinks, strict=True)], checkpoint, source)


def counts(report: Any) -> dict[str, tuple[int, int]]:
    return {c.name: (c.source, c.target) for c in report.counts}


async def test_copies_in_batches_verifies_and_clears_the_checkpoint() -> None:
    points, users = ListStream("vectors", [f"p{i}" for i in range(10)]), ListStream("users", ["a"])
    sinks, checkpoint = [DictSink(), DictSink()], MemoryCheckpoint()
    seen: list[tuple[str, int, int]] = []
    report = await migrate(
        plan_for([points, users], sinks, checkpoint),
        now=NOW,
        batch_size=4,
        progress=lambda *p: seen.append(p),
    )
    assert report.verified and not report.resumed
    assert counts(report) == {"vectors": (10, 10), "users": (1, 1)}
    assert sinks[0].writes == 3  # 4 + 4 + 2
    assert seen == [("vectors", 4, 10), ("vectors", 8, 10), ("vectors", 10, 10), ("users", 1, 1)]
    assert checkpoint.saved is None  # verified: the next run starts over


async def test_a_second_run_gives_the_same_counts() -> None:
    stream, sink, checkpoint = (
        ListStream("vectors", ["a", "b", "c"]),
        DictSink(),
        MemoryCheckpoint(),
    )
    first = await migrate(plan_for([stream], [sink], checkpoint), now=NOW, batch_size=2)
    second = await migrate(plan_for([stream], [sink], checkpoint), now=NOW, batch_size=2)
    assert first.as_dict() == second.as_dict()
    assert sorted(sink.items) == ["a", "b", "c"]


# (which sink fails, on which of its writes) -> where the second run starts each stream
@pytest.mark.parametrize(
    ("failing", "write", "starts", "resumed"),
    [
        (0, 1, {"vectors": [None, None], "users": [None]}, False),  # nothing saved yet
        (0, 2, {"vectors": [None, 2], "users": [None]}, True),
        (0, 4, {"vectors": [None, 6], "users": [None]}, True),  # the last, short batch
        (1, 1, {"vectors": [None], "users": [None, None]}, True),  # vectors done: not re-read
        (1, 2, {"vectors": [None], "users": [None, 2]}, True),
    ],
)
async def test_a_run_that_fails_mid_copy_is_resumed_and_ends_the_same(
    failing: int, write: int, starts: dict[str, list[Any]], resumed: bool
) -> None:
    streams = [ListStream("vectors", [f"p{i}" for i in range(7)]), ListStream("users", list("abc"))]
    sinks, checkpoint = [DictSink(), DictSink()], MemoryCheckpoint()
    sinks[failing].fail_on_write = write
    with pytest.raises(ConnectionError):
        await migrate(plan_for(streams, sinks, checkpoint), now=NOW, batch_size=2)
    report = await migrate(plan_for(streams, sinks, checkpoint), now=NOW, batch_size=2)
    assert report.verified and report.resumed is resumed
    assert counts(report) == {"vectors": (7, 7), "users": (3, 3)}
    assert {s.name: s.starts for s in streams} == starts


async def test_a_changed_source_starts_over() -> None:
    stream, sink, checkpoint = (
        ListStream("vectors", list("abcdef")),
        DictSink(2),
        MemoryCheckpoint(),
    )
    with pytest.raises(ConnectionError):
        await migrate(plan_for([stream], [sink], checkpoint, source="s1"), now=NOW, batch_size=2)
    report = await migrate(
        plan_for([stream], [sink], checkpoint, source="s2"), now=NOW, batch_size=2
    )
    assert stream.starts == [None, None] and not report.resumed and report.verified


async def test_a_target_that_does_not_match_is_reported_and_keeps_the_checkpoint() -> None:
    stream, sink, checkpoint = ListStream("users", ["a"]), DictSink(), MemoryCheckpoint()
    sink.items["stranger"] = "stranger"  # the target held something the source does not
    report = await migrate(plan_for([stream], [sink], checkpoint), now=NOW)
    assert not report.verified and counts(report) == {"users": (1, 2)}
    assert checkpoint.saved is not None


async def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        await migrate(plan_for([], [], MemoryCheckpoint()), now=NOW, batch_size=0)


NOW_S = NOW.timestamp()


@pytest.mark.parametrize(
    ("payload", "live"),
    [
        ({"scope": "core", "expires_at": None}, True),
        ({"scope": "core"}, True),
        ({"scope": "temporary", "expires_at": NOW_S + 1}, True),
        ({"scope": "temporary", "expires_at": NOW_S}, False),
        ({"scope": "temporary", "expires_at": NOW_S - 3600}, False),
        ({"scope": "temporary", "expires_at": None}, False),
    ],
)
def test_which_points_are_live(payload: dict[str, Any], live: bool) -> None:
    assert is_live(payload, NOW) is live


@pytest.mark.parametrize(
    ("collection", "expected"),
    [
        ("users", {}),
        ("documents", {"expires_at": {"$gt": NOW}}),
        ("chat_history", {"created_at": {"$gt": NOW - timedelta(days=30)}}),
        ("idempotency", {}),
    ],
)
def test_which_documents_are_live(collection: str, expected: dict[str, Any]) -> None:
    assert live_filter(collection, NOW) == expected


@pytest.mark.parametrize(
    ("names", "copied"),
    [
        (
            ["chat_history", "chat_recent", "documents", "users", "warden_meta"],
            ["users", "documents", "chat_history"],
        ),
        (["zeta", "users", "alpha", "warden_migration"], ["users", "alpha", "zeta"]),
        ([], []),
    ],
)
def test_which_collections_are_copied(names: list[str], copied: list[str]) -> None:
    assert copied_collections(names) == copied
