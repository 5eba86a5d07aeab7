"""Acceptance: a process killed at any step of an upload leaves, once restarted, either a
complete listed document or nothing searchable (and no vectors).

The stores are real (Qdrant Edge and mongoeco on SQLite in tmp_path). The kill is injected
between the port calls an upload makes: from the chosen call on, the process is dead, so no
write reaches a store any more (not even the clean-up a live process would run). Then the
stores are reopened and the service starts as `build_container` starts it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ingestion import points
from pipelines.ports import PENDING, UPLOAD_STATE_KEY, DocumentRecord, IndexPoint, Store
from pipelines.safety.verdict import CLEAR
from service.adapters.store.mongo_open import open_embedded_store
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex
from service.documents.limits import DocumentLimits
from service.documents.service import DocumentService
from tests.fakes.embedder import FakeEmbedder

USER = "u-crash"
DIM = 32
NOW = datetime.now(UTC).replace(microsecond=0)  # the store's TTL monitor reads the real clock
TEXT = "\n\n".join(
    f"Section {n}. The tenant must pay the rent of flat {n} by the fifth day of each month, "
    "and the landlord must return the deposit within thirty days of the lease ending. " * 3
    for n in range(6)
).encode()
QUERY = "When must the landlord return the deposit?"


class Killed(BaseException):
    """The process died here: nothing after it runs (a BaseException, as no handler may
    catch a SIGKILL)."""


@dataclass
class Kill:
    """Kills the process at the `nth` call of port method `method`, before or after it ran."""

    method: str
    nth: int
    after: bool
    seen: int = field(default=0, compare=False)
    dead: bool = field(default=False, compare=False)

    def wrap(self, name: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def dying(*args: Any, **kwargs: Any) -> Any:
            if self.dead:
                raise Killed(name)
            if name == self.method:
                self.seen += 1
            hit = name == self.method and self.seen == self.nth
            if hit and not self.after:
                self.dead = True
                raise Killed(name)
            result = await call(*args, **kwargs)
            if hit:
                self.dead = True
                raise Killed(name)
            return result

        return dying


class Dying:
    """A port whose every call goes through `kill` (a dead process writes nothing)."""

    def __init__(self, inner: Any, kill: Kill) -> None:
        self._inner, self._kill = inner, kill

    def __getattr__(self, name: str) -> Any:
        return self._kill.wrap(name, getattr(self._inner, name))


# Every port call an upload makes, in order (TEXT has 9 chunks: upsert groups of 5 and 4).
STEPS = [
    Kill("add_document", 1, after=False),  # nothing written yet
    Kill("add_document", 1, after=True),  # pending record
    Kill("upsert", 1, after=True),  # some pending vectors
    Kill("upsert", 2, after=True),  # every vector, pending
    Kill("publish_temporary", 1, after=True),  # vectors published, record still pending
    Kill("mark_document_ready", 1, after=False),
    Kill("mark_document_ready", 1, after=True),  # complete
]


def _service(index: Any, store: Any, clock: Callable[[], datetime] = lambda: NOW) -> Any:
    return DocumentService(
        index=index,
        embedder=FakeEmbedder(DIM),
        registry=store,
        clock=clock,
        limits=DocumentLimits(max_upload_bytes=1 << 20, ttl=timedelta(hours=24)),
        screen=lambda _: CLEAR,
    )


async def _open(data: Path) -> tuple[QdrantEdgeIndex, Store]:
    return QdrantEdgeIndex.open(data / "qdrant", DIM), await open_embedded_store(data)


async def _searchable(index: QdrantEdgeIndex) -> int:
    query = await FakeEmbedder(DIM).embed_query(QUERY)
    found = await index.dual_search(query, user_id=USER, now=NOW, personal_limit=100)
    return len(found.personal)


@pytest.mark.parametrize(
    "kill", STEPS, ids=lambda k: f"{'after' if k.after else 'before'}-{k.method}-{k.nth}"
)
async def test_a_kill_at_any_step_leaves_a_complete_document_or_nothing(
    kill: Kill, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(points, "UPSERT_GROUP", 5)
    index, store = await _open(tmp_path)
    try:
        with pytest.raises(Killed):
            await _service(Dying(index, kill), Dying(store, kill)).upload(
                TEXT, "lease.txt", user_id=USER
            )
    finally:  # the process is gone: its files are released
        await index.close()
        await store.close()
    assert kill.dead

    index, store = await _open(tmp_path)  # the restart
    try:
        complete = kill == STEPS[-1]
        published = STEPS.index(kill) >= STEPS.index(Kill("publish_temporary", 1, after=True))
        # before start-up clean-up: only a published upload can be searched at all
        assert (await _searchable(index) > 0) is published
        await _service(index, store).remove_crashed(exclusive=True)

        listed = await store.user_documents(USER, now=NOW)
        if complete:
            assert [(d.name, d.chunks, d.state) for d in listed] == [("lease.txt", 9, "ready")]
            assert await _searchable(index) == 9 == await index.count()
        else:
            assert listed == [] and await store.pending_documents(NOW) == []
            assert await _searchable(index) == 0 and await index.count() == 0
    finally:
        await index.close()
        await store.close()


async def test_the_sweep_removes_only_uploads_pending_past_the_grace(tmp_path: Path) -> None:
    """A crash on a shared store (or a clean-up that failed) is removed by the sweeper once
    pending for longer than the grace; an upload still in flight is left alone."""
    index, store = await _open(tmp_path)
    try:
        for doc_id, age in (("d-crashed", timedelta(hours=2)), ("d-in-flight", timedelta())):
            at = NOW - age
            await store.add_document(
                DocumentRecord(
                    doc_id, USER, "a.txt", 1, at, at + timedelta(hours=24), state="pending"
                )
            )
            payload = {
                "chunk_type": "child",
                "doc_id": doc_id,
                "is_temporary": True,
                "uploaded_by": USER,
                "expires_at": int((at + timedelta(hours=24)).timestamp()),
                UPLOAD_STATE_KEY: PENDING,
            }
            vector = await FakeEmbedder(DIM).embed_query(QUERY)
            await index.upsert([IndexPoint(f"{doc_id}:c0", vector, payload)])

        result = await _service(index, store).sweep()
        assert result.pending_removed == 1
        assert [d.id for d in await store.pending_documents(NOW)] == ["d-in-flight"]
        assert await index.count() == 1  # the crashed upload's vector went with its record
    finally:
        await index.close()
        await store.close()
