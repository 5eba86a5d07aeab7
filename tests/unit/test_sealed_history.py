"""SealedHistoryStore over the history outbox and a fake store: what is stored is masked and
sealed, what is read is restored; the outbox file holds sealed turns only; a failing detector
seals the whole message; rotation re-seals and seals clear text."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pipelines.ports import ChatRecord, PiiSpan
from service.adapters.store.history_cipher import HistoryCipher
from service.adapters.store.history_outbox import OutboxChatStore
from service.adapters.store.sealed_history import SealedHistoryStore
from tests.fakes.detector import FakePiiDetector
from tests.fakes.store import FakeStore, utc_now

EMAIL, CARD = "asha@example.org", "4111 1111 1111 1111"
QUESTION = f"My card {CARD} was charged twice; write to {EMAIL}"
ANSWER = f"We will write to {EMAIL} about the card."
KEY, OTHER_KEY = os.urandom(32), os.urandom(32)
SINCE = datetime(2000, 1, 1, tzinfo=UTC)


def turn(user_id: str = "u1", turn_id: str = "t1") -> list[ChatRecord]:
    now = utc_now()
    return [
        ChatRecord(user_id, "user", QUESTION, now, turn_id, "question"),
        ChatRecord(user_id, "assistant", ANSWER, now, turn_id, "question"),
    ]


class BrokenDetector:
    async def detect(self, text: str) -> list[PiiSpan]:
        raise RuntimeError("detector down")


def stack(
    tmp_path: Path, detector: object = None
) -> tuple[SealedHistoryStore, FakeStore, OutboxChatStore]:
    store = FakeStore()
    outbox = OutboxChatStore(store, tmp_path / "outbox")
    sealed = SealedHistoryStore(outbox, HistoryCipher([KEY]), detector or FakePiiDetector())  # type: ignore[arg-type]
    return sealed, store, outbox


async def test_stored_masked_and_read_restored(tmp_path: Path) -> None:
    sealed, store, _ = stack(tmp_path)
    await sealed.save_turn(turn())
    stored = {r.role: r for r in store.chats.values()}
    assert (
        stored["user"].content
        == "My card <CREDIT_CARD_1> was charged twice; write to <EMAIL_ADDRESS_1>"
    )
    assert stored["assistant"].content == "We will write to <EMAIL_ADDRESS_1> about the card."
    assert all(EMAIL not in (r.sealed or "") and r.sealed for r in stored.values())
    read = await sealed.recent_history("u1", since=SINCE, limit=10)
    assert [r.content for r in read] == [QUESTION, ANSWER] and all(r.sealed is None for r in read)
    assert await sealed.recent_history("u2", since=SINCE, limit=10) == []


async def test_the_outbox_file_holds_sealed_turns_only(tmp_path: Path) -> None:
    sealed, store, outbox = stack(tmp_path)
    store.fail_writes = True
    await sealed.save_turn(turn())
    raw = (tmp_path / "outbox" / "history-outbox.jsonl").read_bytes()
    assert EMAIL.encode() not in raw and CARD.encode() not in raw and b"<EMAIL_ADDRESS_1>" in raw
    read = await sealed.recent_history("u1", since=SINCE, limit=10)  # queued, still restored
    assert [r.content for r in read] == [QUESTION, ANSWER]
    assert await outbox.forget_user("u1") == 1 and await outbox.queued_turns() == 0


async def test_a_failing_detector_seals_the_whole_message(tmp_path: Path) -> None:
    sealed, store, _ = stack(tmp_path, BrokenDetector())
    await sealed.save_turn(turn())
    assert {r.content for r in store.chats.values()} == {"<MESSAGE_1>"}
    read = await sealed.recent_history("u1", since=SINCE, limit=10)
    assert [r.content for r in read] == [QUESTION, ANSWER]


async def test_reseal_moves_to_the_new_key_and_seals_clear_text(tmp_path: Path) -> None:
    sealed, store, outbox = stack(tmp_path)
    await sealed.save_turn(turn())
    legacy = ChatRecord("u1", "user", QUESTION, utc_now() + timedelta(seconds=1), "t0", None)
    rotating = SealedHistoryStore(outbox, HistoryCipher([OTHER_KEY, KEY]), FakePiiDetector())
    for record in store.chats.values():
        resealed = await rotating.reseal(record)
        assert resealed is not None and resealed.content == record.content
        assert await rotating.reseal(resealed) is None  # already under the new key
        assert rotating.opened(resealed).content in (QUESTION, ANSWER)
    from_clear = await rotating.reseal(legacy)
    assert from_clear is not None and EMAIL not in from_clear.content
    assert rotating.opened(from_clear).content == QUESTION
    only_new = SealedHistoryStore(outbox, HistoryCipher([OTHER_KEY]), FakePiiDetector())
    record = next(iter(store.chats.values()))
    assert "<" in only_new.opened(record).content  # no key opens it: placeholders shown
