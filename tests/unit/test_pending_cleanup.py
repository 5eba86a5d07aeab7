"""The clean-up of uploads a crash left pending (service/documents/sweeper.py `remove_pending`,
through DocumentService): which are removed, in which order, and what a failure leaves."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from pipelines.ports import PENDING, UPLOAD_STATE_KEY, IndexPoint, StoreUnavailable
from pipelines.safety.verdict import CLEAR
from service.documents.limits import DocumentLimits
from service.documents.service import DocumentService
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore, make_document, utc_now
from tests.fakes.vector_index import FakeVectorIndex

NOW = utc_now()


def _service(index: FakeVectorIndex, store: FakeStore) -> DocumentService:
    return DocumentService(
        index=index,
        embedder=FakeEmbedder(8),
        registry=store,
        clock=lambda: NOW,
        limits=DocumentLimits(max_upload_bytes=1 << 20, ttl=timedelta(hours=24)),
        screen=lambda _: CLEAR,
    )


async def _pending(index: FakeVectorIndex, store: FakeStore, doc_id: str, age: timedelta) -> None:
    record = make_document(doc_id, "u-1", timedelta(hours=24))
    await store.add_document(replace(record, created_at=NOW - age, state="pending"))
    payload = {"doc_id": doc_id, "is_temporary": True, "uploaded_by": "u-1"}
    await index.upsert(
        [IndexPoint(f"{doc_id}:0", [1.0] * 8, payload | {UPLOAD_STATE_KEY: PENDING})]
    )


def _left(store: FakeStore) -> list[str]:
    return sorted(store.documents)


@pytest.mark.parametrize(
    ("exclusive", "left"),
    [(True, []), (False, ["d-new"])],  # a shared store: the new one may be in flight elsewhere
)
async def test_start_up_removes_pending_uploads_with_their_vectors(
    exclusive: bool, left: list[str]
) -> None:
    index, store = FakeVectorIndex(), FakeStore()
    await _pending(index, store, "d-old", timedelta(hours=2))
    await _pending(index, store, "d-new", timedelta(seconds=1))
    await store.add_document(make_document("d-ready", "u-1", timedelta(hours=1)))

    removed = await _service(index, store).remove_crashed(exclusive=exclusive)
    assert removed == 2 - len(left)
    assert _left(store) == sorted(["d-ready", *left])
    assert sorted(p.payload["doc_id"] for p in index.points.values()) == left


async def test_a_failed_vector_delete_keeps_the_record_for_the_next_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index, store = FakeVectorIndex(), FakeStore()
    await _pending(index, store, "d-old", timedelta(hours=2))

    async def index_down(doc_id: str, *, user_id: str) -> None:
        raise StoreUnavailable("index down")

    with monkeypatch.context() as patch:
        patch.setattr(index, "delete_temporary", index_down)
        assert (await _service(index, store).sweep()).pending_removed == 0
    assert _left(store) == ["d-old"]  # still pending: its vectors are still to go
    assert (await _service(index, store).sweep()).pending_removed == 1
    assert _left(store) == [] and index.points == {}


async def test_an_unreadable_store_removes_nothing_and_does_not_raise() -> None:
    index, store = FakeVectorIndex(), FakeStore()
    await _pending(index, store, "d-old", timedelta(hours=2))
    store.fail_reads = True
    assert await _service(index, store).remove_crashed(exclusive=True) == 0
    assert len(index.points) == 1
