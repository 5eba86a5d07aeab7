"""The history outbox keeps every answered turn while the store is down, exactly once."""

from __future__ import annotations

import stat
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from pipelines.ports import ChatRecord, Store, StoreUnavailable
from service.adapters.store.history_outbox import OutboxChatStore
from tests.fakes.store import FakeStore, make_turn, utc_now

SINCE = timedelta(days=1)


class PickyStore(FakeStore):
    """A FakeStore that refuses to save the turns named in `refuse`."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse: set[str] = set()

    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        if any(r.turn_id in self.refuse for r in records):
            raise StoreUnavailable("refused")
        await super().save_turn(records)


def _stored(store: FakeStore, turn_id: str) -> list[ChatRecord]:
    return [r for r in store.chats.values() if r.turn_id == turn_id]


async def _history(store: Store, user_id: str = "u-1") -> list[str]:
    history = await store.recent_history(user_id, since=utc_now() - SINCE, limit=50)
    return [f"{r.turn_id}:{r.role}" for r in history]


async def test_turn_queued_while_down_is_stored_exactly_once_after_replay(tmp_path: Path) -> None:
    inner = FakeStore()
    outbox = OutboxChatStore(inner, tmp_path)
    inner.fail_writes = True
    await outbox.save_turn(make_turn("u-1", "t-1", utc_now()))  # returns normally
    assert await outbox.queued_turns() == 1
    assert _stored(inner, "t-1") == []

    assert await outbox.replay() == 0  # still down: kept
    assert await outbox.queued_turns() == 1

    inner.fail_writes = False
    assert await outbox.replay() == 1
    assert await outbox.replay() == 0
    assert len(_stored(inner, "t-1")) == 2
    assert await outbox.queued_turns() == 0
    assert await _history(outbox) == ["t-1:user", "t-1:assistant"]


async def test_a_new_outbox_on_the_same_folder_replays_what_the_old_one_queued(
    tmp_path: Path,
) -> None:
    inner = FakeStore()
    inner.fail_writes = True
    crashed = OutboxChatStore(inner, tmp_path)
    await crashed.save_turn(make_turn("u-1", "t-1", utc_now()))
    await crashed.save_turn(make_turn("u-2", "t-2", utc_now()))
    del crashed  # the process dies; only the file remains

    inner.fail_writes = False
    restarted = OutboxChatStore(inner, tmp_path)
    assert await restarted.queued_turns() == 2
    assert await restarted.replay() == 2
    assert len(_stored(inner, "t-1")) == 2 and len(_stored(inner, "t-2")) == 2
    assert await OutboxChatStore(inner, tmp_path).queued_turns() == 0


async def test_a_turn_stored_before_a_crash_is_not_duplicated(tmp_path: Path) -> None:
    inner = FakeStore()
    inner.fail_writes = True
    records = make_turn("u-1", "t-1", utc_now())
    await OutboxChatStore(inner, tmp_path).save_turn(records)
    inner.fail_writes = False
    await inner.save_turn(records)  # replay stored it, then died before dropping the line

    restarted = OutboxChatStore(inner, tmp_path)
    assert await _history(restarted) == ["t-1:user", "t-1:assistant"]  # merged, not doubled
    await restarted.replay()
    assert len(_stored(inner, "t-1")) == 2
    assert await _history(restarted) == ["t-1:user", "t-1:assistant"]


async def test_the_next_successful_save_drains_the_queue(tmp_path: Path) -> None:
    inner = FakeStore()
    outbox = OutboxChatStore(inner, tmp_path)
    start = utc_now() - timedelta(minutes=5)
    inner.fail_writes = True
    await outbox.save_turn(make_turn("u-1", "t-1", start))
    inner.fail_writes = False
    await outbox.save_turn(make_turn("u-1", "t-2", start + timedelta(minutes=1)))
    assert await outbox.queued_turns() == 0
    assert await _history(inner) == ["t-1:user", "t-1:assistant", "t-2:user", "t-2:assistant"]


async def test_replay_stops_at_a_failure_and_keeps_the_rest_in_order(tmp_path: Path) -> None:
    inner = PickyStore()
    outbox = OutboxChatStore(inner, tmp_path)
    inner.refuse = {"t-1", "t-2", "t-3"}
    for turn_id in ("t-1", "t-2", "t-3"):
        await outbox.save_turn(make_turn("u-1", turn_id, utc_now()))
    inner.refuse = {"t-2"}
    assert await outbox.replay() == 1
    assert await OutboxChatStore(inner, tmp_path).queued_turns() == 2  # the file agrees
    inner.refuse = set()
    assert await outbox.replay() == 2
    assert {r.turn_id for r in inner.chats.values()} == {"t-1", "t-2", "t-3"}


async def test_history_shows_queued_turns_while_the_store_is_down(tmp_path: Path) -> None:
    inner = FakeStore()
    outbox = OutboxChatStore(inner, tmp_path)
    start = utc_now() - timedelta(minutes=10)
    await outbox.save_turn(make_turn("u-1", "t-1", start))
    inner.fail_writes = True
    await outbox.save_turn(make_turn("u-1", "t-2", start + timedelta(minutes=1)))
    await outbox.save_turn(make_turn("u-2", "t-x", start + timedelta(minutes=1)))

    # writes down, reads up: stored and queued turns merge in time order
    assert await _history(outbox) == ["t-1:user", "t-1:assistant", "t-2:user", "t-2:assistant"]
    limited = await outbox.recent_history("u-1", since=start - SINCE, limit=3)
    assert [f"{r.turn_id}:{r.role}" for r in limited] == [
        "t-1:assistant",
        "t-2:user",
        "t-2:assistant",
    ]
    # everything down: the queued turns still show; a user with none queued gets the error
    inner.fail_reads = True
    assert await _history(outbox) == ["t-2:user", "t-2:assistant"]
    with pytest.raises(StoreUnavailable):
        await _history(outbox, "u-3")


async def test_a_torn_last_line_is_dropped_and_later_turns_are_kept(tmp_path: Path) -> None:
    inner = FakeStore()
    inner.fail_writes = True
    await OutboxChatStore(inner, tmp_path).save_turn(make_turn("u-1", "t-1", utc_now()))
    outbox_file = tmp_path / "history-outbox.jsonl"
    with outbox_file.open("ab") as handle:
        handle.write(b'{"turn": [{"user_id": "u-1", "ro')  # crash mid-append

    restarted = OutboxChatStore(inner, tmp_path)
    await restarted.save_turn(make_turn("u-1", "t-2", utc_now()))
    assert await OutboxChatStore(inner, tmp_path).queued_turns() == 2
    inner.fail_writes = False
    assert await restarted.replay() == 2
    assert {r.turn_id for r in inner.chats.values()} == {"t-1", "t-2"}


async def test_outbox_file_is_private_and_other_calls_delegate(tmp_path: Path) -> None:
    inner = FakeStore()
    outbox = OutboxChatStore(inner, tmp_path)
    inner.fail_writes = True
    await outbox.save_turn(make_turn("u-1", "t-1", utc_now()))
    mode = stat.S_IMODE((tmp_path / "history-outbox.jsonl").stat().st_mode)
    assert mode == 0o600
    with pytest.raises(StoreUnavailable):
        await outbox.ping()
    assert isinstance(outbox, Store)
    await outbox.close()
    assert inner.closed


async def test_an_unreadable_line_is_dropped_and_the_others_replayed(tmp_path: Path) -> None:
    inner = FakeStore()
    inner.fail_writes = True
    outbox = OutboxChatStore(inner, tmp_path)
    await outbox.save_turn(make_turn("u-1", "t-1", utc_now()))
    outbox_file = tmp_path / "history-outbox.jsonl"
    with outbox_file.open("ab") as handle:
        handle.write(b"not json\n")
    await OutboxChatStore(inner, tmp_path).save_turn(make_turn("u-1", "t-2", utc_now()))
    assert b"not json" not in outbox_file.read_bytes()  # cleaned on load, before the append

    inner.fail_writes = False
    assert await OutboxChatStore(inner, tmp_path).replay() == 2
    assert {r.turn_id for r in inner.chats.values()} == {"t-1", "t-2"}
