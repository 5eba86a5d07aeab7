"""One VectorIndex contract, held by the fake, Qdrant Edge and qdrant-client (local mode)."""

from __future__ import annotations

import asyncio
import math
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import qdrant_edge as qe
from qdrant_client import AsyncQdrantClient, models

from pipelines.ports import (
    INDEX_LAYOUT,
    LAYOUT_KEY,
    PENDING,
    READY,
    UPLOAD_STATE_KEY,
    IndexedDocument,
    IndexPoint,
    SparseVector,
    StoreUnavailable,
    UserVectors,
    VectorIndex,
)
from service.adapters.vector.qdrant_edge import IndexLocked, QdrantEdgeIndex
from service.adapters.vector.qdrant_server import QdrantServerIndex
from tests.fakes.vector_index import FakeVectorIndex

DIM = 8
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NOW_S = int(NOW.timestamp())
LATER = NOW_S + 3600


def vec(*head: float) -> list[float]:
    return [*head, *[0.0] * (DIM - len(head))]


def point(
    pid: str,
    vector: list[float],
    doc: str = "doc-a",
    sparse: SparseVector | None = None,
    **extra: Any,
) -> IndexPoint:
    payload: dict[str, Any] = {
        "chunk_type": "child",
        "parent_id": f"{doc}:p0",
        "parent_text": "parent text",
        "text": f"text of {pid}",
        "doc_id": doc,
        "source": f"{doc}.md",
        "page": 1,
        "is_temporary": False,
        "uploaded_by": None,
        "expires_at": None,
        "content_hash": f"hash-{doc}",
    }
    return IndexPoint(pid, vector, payload | extra, sparse)


def temp(
    pid: str,
    vector: list[float],
    user: str,
    doc: str = "up-1",
    sparse: SparseVector | None = None,
    **extra: Any,
) -> IndexPoint:
    fields: dict[str, Any] = {"is_temporary": True, "uploaded_by": user, "expires_at": LATER}
    return point(pid, vector, doc, sparse, **(fields | extra))


async def open_index(kind: str, folder: Path) -> VectorIndex:
    if kind == "fake":
        return FakeVectorIndex(dimension=DIM)
    if kind == "edge":
        return QdrantEdgeIndex.open(folder / "edge", DIM)
    if kind == "server":
        return await QdrantServerIndex.connect(dimension=DIM, location=":memory:")
    return await QdrantServerIndex.connect(dimension=DIM, path=str(folder / "local"))


@pytest.fixture(params=["fake", "edge", "server"])
async def index(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[VectorIndex]:
    idx = await open_index(request.param, tmp_path)
    yield idx
    await idx.close()


def ids(hits: list[Any]) -> list[str]:
    return [h.id for h in hits]


async def test_core_and_personal_are_disjoint(index: VectorIndex) -> None:
    await index.upsert([point("c1", vec(1, 0.1)), temp("t1", vec(1, 0.1), user="alice")])
    found = await index.dual_search(vec(1, 0.1), user_id="alice", now=NOW)
    assert ids(found.core) == ["c1"]  # is_temporary=False matches (Edge's boolean trap)
    assert ids(found.personal) == ["t1"]


async def test_parents_are_never_searched(index: VectorIndex) -> None:
    await index.upsert(
        [point("p1", vec(1), chunk_type="parent"), temp("p2", vec(1), "alice", chunk_type="parent")]
    )
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert found.core == [] and found.personal == []


async def test_tenant_isolation_even_with_identical_vectors(index: VectorIndex) -> None:
    await index.upsert([temp("a1", vec(0, 1), user="alice"), point("c1", vec(1))])
    bob = await index.dual_search(vec(0, 1), user_id="bob", now=NOW)
    alice = await index.dual_search(vec(0, 1), user_id="alice", now=NOW)
    assert bob.personal == [] and ids(bob.core) == ["c1"]
    assert ids(alice.personal) == ["a1"]


async def test_expired_documents_are_not_returned(index: VectorIndex) -> None:
    await index.upsert(
        [
            temp("past", vec(1), "alice", expires_at=NOW_S - 60),
            temp("edge", vec(1, 0.1), "alice", expires_at=NOW_S),  # expires exactly now
            temp("soon", vec(1, 0.2), "alice", expires_at=NOW_S + 1),
        ]
    )
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert ids(found.personal) == ["soon"]
    naive = await index.dual_search(vec(1), user_id="alice", now=NOW.replace(tzinfo=None))
    assert ids(naive.personal) == ["soon"]  # a naive datetime is read as UTC


async def test_a_user_id_is_mandatory(index: VectorIndex) -> None:
    with pytest.raises(ValueError):
        await index.dual_search(vec(1), user_id="", now=NOW)
    with pytest.raises(ValueError):
        await index.delete_temporary("up-1", user_id="")
    with pytest.raises(ValueError):
        await index.publish_temporary("up-1", user_id="")


async def test_limits_ordering_and_cosine_scores(index: VectorIndex) -> None:
    core = [point(f"c{i:02d}", vec(1, i / 10)) for i in range(20)]
    mine = [temp(f"t{i}", vec(1, i / 10), "alice") for i in range(8)]
    await index.upsert(core + mine)
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert ids(found.core) == [f"c{i:02d}" for i in range(15)]  # nearest first
    assert ids(found.personal) == [f"t{i}" for i in range(5)]
    assert found.core[0].score == pytest.approx(1.0, abs=1e-5)
    assert found.core[1].score == pytest.approx(1 / (1 + 0.01) ** 0.5, abs=1e-5)
    small = await index.dual_search(
        vec(1), user_id="alice", now=NOW, core_limit=3, personal_limit=0
    )
    assert ids(small.core) == ["c00", "c01", "c02"] and small.personal == []
    assert all(a.score >= b.score for a, b in zip(found.core, found.core[1:], strict=False))


async def test_upsert_is_idempotent_and_payload_round_trips(index: VectorIndex) -> None:
    original = temp("doc#1/chunk:0", vec(1), "alice")
    await index.upsert([original])
    await index.upsert([temp("doc#1/chunk:0", vec(1), "alice", text="edited")])
    assert await index.count() == 1
    [hit] = (await index.dual_search(vec(1), user_id="alice", now=NOW)).personal
    assert hit.id == "doc#1/chunk:0"
    assert dict(hit.payload) == dict(original.payload) | {"text": "edited"}


async def test_core_documents_lists_core_hashes_only(index: VectorIndex) -> None:
    await index.upsert(
        [point("a1", vec(1), "a"), point("a2", vec(0, 1), "a"), point("b1", vec(1), "b")]
        + [temp("t1", vec(1), "alice", doc="up-1")]
    )
    assert await index.core_documents() == {
        "a": IndexedDocument("hash-a"),
        "b": IndexedDocument("hash-b"),
    }


async def test_core_documents_carry_hash_and_source_root_as_upserted(index: VectorIndex) -> None:
    await index.upsert(
        [
            point("k1", vec(1), "kb/fir.md", source_root="/data/kb"),
            point("k2", vec(0, 1), "kb/fir.md", source_root="/data/kb"),
            point("o1", vec(1), "old.md"),  # indexed before roots were kept
            point("n1", vec(1), "null.md", source_root=None),
            temp("t1", vec(1), "alice", doc="up-1", source_root="/tmp/up"),
        ]
    )
    assert await index.core_documents() == {
        "kb/fir.md": IndexedDocument("hash-kb/fir.md", source_root="/data/kb"),
        "old.md": IndexedDocument("hash-old.md", source_root=None),
        "null.md": IndexedDocument("hash-null.md", source_root=None),
    }
    await index.delete_document("kb/fir.md")
    await index.upsert([point("k3", vec(1), "kb/fir.md", content_hash="h2", source_root="/b")])
    assert (await index.core_documents())["kb/fir.md"] == IndexedDocument("h2", "/b")


async def test_delete_document_removes_only_that_core_document(index: VectorIndex) -> None:
    await index.upsert([point("a1", vec(1), "a"), point("b1", vec(1, 1), "b")])
    await index.upsert([temp("t1", vec(1), "alice", doc="a")])  # same doc_id, but a user's upload
    await index.delete_document("a")
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert ids(found.core) == ["b1"] and ids(found.personal) == ["t1"]


async def test_delete_temporary_only_for_its_owner(index: VectorIndex) -> None:
    await index.upsert([temp("t1", vec(1), "alice"), point("c1", vec(1), doc="up-1")])
    await index.delete_temporary("up-1", user_id="bob")
    assert await index.count() == 2
    await index.delete_temporary("up-1", user_id="alice")
    assert await index.count() == 1  # the core point with the same doc_id stays
    assert await index.core_documents() == {"up-1": IndexedDocument("hash-up-1")}


async def test_erasing_a_user_removes_every_upload_of_theirs_and_nothing_else(
    index: VectorIndex,
) -> None:
    await index.upsert(
        [
            temp("a1", vec(1), "alice"),
            temp("a2", vec(2), "alice", doc="up-2"),
            temp("b1", vec(1), "bob"),
            point("c1", vec(1), doc="up-1"),
        ]
    )
    assert isinstance(index, UserVectors)
    await index.delete_user_documents("alice")
    await index.compact()
    assert await index.count() == 2
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert ids(found.core) == ["c1"] and ids(found.personal) == []
    assert ids((await index.dual_search(vec(1), user_id="bob", now=NOW)).personal) == ["b1"]
    with pytest.raises(ValueError):
        await index.delete_user_documents("")


async def test_delete_expired(index: VectorIndex) -> None:
    await index.upsert(
        [
            temp("old", vec(1), "alice", expires_at=NOW_S - 1),
            temp("now", vec(1), "bob", expires_at=NOW_S),
            temp("new", vec(1), "alice", expires_at=NOW_S + 1),
            point("core", vec(1)),
        ]
    )
    await index.delete_expired(NOW)
    assert await index.count() == 2
    found = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert ids(found.core) == ["core"] and ids(found.personal) == ["new"]


async def test_wrong_dimension_is_refused(index: VectorIndex) -> None:
    with pytest.raises(ValueError):
        await index.upsert([point("x", [1.0, 0.0])])
    with pytest.raises(ValueError):
        await index.dual_search([1.0], user_id="alice", now=NOW)


async def test_ping_then_closed(tmp_path: Path, index: VectorIndex) -> None:
    assert await index.ping() is None
    await index.close()
    with pytest.raises(StoreUnavailable):
        await index.ping()
    await index.close()  # closing twice is harmless: no error, and it stays closed
    with pytest.raises(StoreUnavailable):
        await index.ping()


@pytest.mark.parametrize("kind", ["edge", "server-path"])
async def test_persists_across_close_and_reopen(kind: str, tmp_path: Path) -> None:
    first = await open_index(kind, tmp_path)
    await first.upsert([point("c1", vec(1)), temp("t1", vec(1, 0.5), "alice")])
    before = await first.dual_search(vec(1), user_id="alice", now=NOW)
    await first.close()
    again = await open_index(kind, tmp_path)
    try:
        assert await again.count() == 2
        after = await again.dual_search(vec(1), user_id="alice", now=NOW)
        for was, now in ((before.core, after.core), (before.personal, after.personal)):
            assert [(h.id, dict(h.payload)) for h in now] == [(h.id, dict(h.payload)) for h in was]
            assert [h.score for h in now] == pytest.approx([h.score for h in was], abs=1e-6)
        assert await again.core_documents() == {"doc-a": IndexedDocument("hash-doc-a")}
    finally:
        await again.close()


def test_a_held_edge_folder_fails_clearly_in_this_and_another_process(tmp_path: Path) -> None:
    held = QdrantEdgeIndex.open(tmp_path / "edge", DIM)
    try:
        with pytest.raises(IndexLocked):
            QdrantEdgeIndex.open(tmp_path / "edge", DIM)
        script = (
            "import sys; from pathlib import Path\n"
            "from service.adapters.vector.qdrant_edge import QdrantEdgeIndex, IndexLocked\n"
            "try:\n    QdrantEdgeIndex.open(Path(sys.argv[1]), 8)\n"
            "except IndexLocked:\n    sys.exit(3)\n"
        )
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": str(root)}
        child = subprocess.run([sys.executable, "-c", script, str(tmp_path / "edge")], env=env)
        assert child.returncode == 3
    finally:
        asyncio.run(held.close())
    asyncio.run(QdrantEdgeIndex.open(tmp_path / "edge", DIM).close())  # released by close()


class CountingProxy:
    """Wraps an engine or client object and counts the calls made to it, by method name."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if callable(attr):
            self.calls.append(name)
        return attr


async def open_counted(kind: str, folder: Path) -> tuple[VectorIndex, CountingProxy]:
    """An index built with its public constructor around a counting proxy of the engine
    (Edge's shard) or client (qdrant-client, local mode), on a folder `open_index` made."""
    prepared = await open_index(kind, folder)  # creates the collection and payload indexes
    await prepared.upsert([point("c1", vec(1)), temp("t1", vec(1), "alice")])
    await prepared.close()
    if kind == "edge":
        shard = CountingProxy(qe.EdgeShard.load(str(folder / "edge")))
        lock = (folder / "edge" / "test.lock").open("a")  # closed by close()
        return QdrantEdgeIndex(shard, lock, DIM, offload_queries=True), shard  # type: ignore[arg-type]
    client = CountingProxy(AsyncQdrantClient(path=str(folder / "local")))
    return QdrantServerIndex(client, "warden", DIM), client  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "engine_call"), [("edge", "query_batch"), ("server-path", "query_batch_points")]
)
async def test_dual_search_is_one_round_trip(kind: str, engine_call: str, tmp_path: Path) -> None:
    idx, engine = await open_counted(kind, tmp_path)
    try:
        found = await idx.dual_search(vec(1), user_id="alice", now=NOW)
        assert (ids(found.core), ids(found.personal)) == (["c1"], ["t1"])
        assert engine.calls == [engine_call]  # core and personal in one batched query
    finally:
        await idx.close()


# ---------------------------------------------------------------- hybrid (sparse) search


def bm25_idf(total: int, having: int) -> float:
    """Qdrant's IDF modifier: N = points with a sparse vector, n = those with the term."""
    return math.log(1 + (total - having + 0.5) / (having + 0.5))


def terms(*weights: tuple[int, float]) -> SparseVector:
    return SparseVector(tuple(i for i, _ in weights), tuple(v for _, v in weights))


async def test_sparse_search_scores_bm25_with_idf_beside_dense(index: VectorIndex) -> None:
    await index.upsert(
        [
            point("common", vec(1), "a", sparse=terms((1, 2.0))),
            point("rare", vec(0, 1), "b", sparse=terms((1, 1.0), (7, 1.0))),
            point("other", vec(0, 0, 1), "c", sparse=terms((3, 1.0))),
            point("dense-only", vec(1, 0.1), "d"),  # older data: found by dense search only
        ]
    )
    found = await index.dual_search(
        vec(1), user_id="alice", now=NOW, sparse=terms((1, 1.0), (7, 1.0))
    )
    assert ids(found.core)[:2] == ["common", "dense-only"]  # dense untouched
    assert found.core[0].score == pytest.approx(1.0, abs=1e-5)
    assert ids(found.core_sparse) == ["rare", "common"]  # the rare term outweighs tf 2
    rare = bm25_idf(3, 2) + bm25_idf(3, 1)
    assert [h.score for h in found.core_sparse] == pytest.approx(
        [rare, 2 * bm25_idf(3, 2)], rel=1e-4
    )
    assert found.core_sparse[0].payload["doc_id"] == "b" and found.personal_sparse == []
    plain = await index.dual_search(vec(1), user_id="alice", now=NOW)
    assert plain.core_sparse == [] and plain.personal_sparse == []
    empty = await index.dual_search(vec(1), user_id="alice", now=NOW, sparse=SparseVector())
    assert empty.core_sparse == [] and ids(empty.core) == ids(found.core)


async def test_sparse_search_keeps_tenants_scopes_expiry_and_limits(index: VectorIndex) -> None:
    word = terms((5, 1.0))
    await index.upsert(
        [point(f"c{i}", vec(1), sparse=terms((5, 1.0 + i / 10))) for i in range(18)]
        + [
            temp("a1", vec(1), "alice", sparse=word),
            temp("gone", vec(1), "alice", expires_at=NOW_S, sparse=word),
            temp("b1", vec(1), "bob", sparse=word),
            point("p1", vec(1), chunk_type="parent", sparse=word),
        ]
    )
    alice = await index.dual_search(vec(1), user_id="alice", now=NOW, sparse=word)
    assert ids(alice.personal_sparse) == ["a1"]
    assert ids(alice.core_sparse) == [f"c{i}" for i in range(17, 2, -1)]  # limit 15, best first
    bob = await index.dual_search(
        vec(1), user_id="bob", now=NOW, sparse=word, core_limit=2, personal_limit=0
    )
    assert ids(bob.core_sparse) == ["c17", "c16"] and bob.personal_sparse == []


async def test_sparse_vectors_are_replaced_and_deleted_with_their_points(
    index: VectorIndex,
) -> None:
    await index.upsert([point("x", vec(1), sparse=terms((1, 1.0))), point("y", vec(1), "b")])
    await index.upsert([point("x", vec(1), sparse=terms((2, 1.0)))])
    first = await index.dual_search(vec(1), user_id="u", now=NOW, sparse=terms((1, 1.0)))
    second = await index.dual_search(vec(1), user_id="u", now=NOW, sparse=terms((2, 1.0)))
    assert first.core_sparse == [] and ids(second.core_sparse) == ["x"]
    await index.delete_document("doc-a")
    gone = await index.dual_search(vec(1), user_id="u", now=NOW, sparse=terms((2, 1.0)))
    assert gone.core_sparse == [] and ids(gone.core) == ["y"]


async def test_core_documents_report_the_index_layout(index: VectorIndex) -> None:
    await index.upsert(
        [point("n1", vec(1), "new", **{LAYOUT_KEY: INDEX_LAYOUT}), point("o1", vec(1), "old")]
    )
    found = await index.core_documents()
    assert found["new"].layout == INDEX_LAYOUT and found["old"].layout == 0


@pytest.mark.parametrize(
    ("kind", "engine_call"), [("edge", "query_batch"), ("server-path", "query_batch_points")]
)
async def test_hybrid_dual_search_is_one_round_trip(
    kind: str, engine_call: str, tmp_path: Path
) -> None:
    idx, engine = await open_counted(kind, tmp_path)
    try:
        await idx.upsert([point("c2", vec(0, 1), sparse=terms((4, 1.0)))])
        engine.calls.clear()
        found = await idx.dual_search(vec(1), user_id="alice", now=NOW, sparse=terms((4, 1.0)))
        assert ids(found.core_sparse) == ["c2"] and ids(found.personal) == ["t1"]
        assert engine.calls == [engine_call]  # four searches, one batched query
    finally:
        await idx.close()


async def test_an_edge_shard_from_before_hybrid_search_is_migrated_on_open(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "edge"
    old = qe.EdgeShard.create(
        str(folder), qe.EdgeConfig(vectors=qe.EdgeVectorParams(DIM, qe.Distance.Cosine))
    )
    legacy = point("c1", vec(1), "old.md")
    stored = {**legacy.payload, "point_id": "c1", "scope": "core"}
    old.update(qe.UpdateOperation.upsert_points([qe.Point(str(uuid.uuid4()), vec(1), stored)]))
    old.close()
    idx = QdrantEdgeIndex.open(folder, DIM)
    try:
        assert await idx.core_documents() == {"old.md": IndexedDocument("hash-old.md")}
        await idx.upsert([point("c2", vec(0, 1), "new.md", sparse=terms((9, 1.0)))])
        found = await idx.dual_search(vec(1), user_id="u", now=NOW, sparse=terms((9, 1.0)))
        assert ids(found.core) == ["c1", "c2"] and ids(found.core_sparse) == ["c2"]
    finally:
        await idx.close()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == [".warden.lock"]


async def test_a_server_collection_from_before_hybrid_search_serves_dense_only(
    tmp_path: Path,
) -> None:
    client = AsyncQdrantClient(path=str(tmp_path / "local"))
    params = models.VectorParams(size=DIM, distance=models.Distance.COSINE)
    await client.create_collection("warden", vectors_config=params)
    await client.close()
    idx = await QdrantServerIndex.connect(dimension=DIM, path=str(tmp_path / "local"))
    try:
        assert idx.hybrid is False
        await idx.upsert([point("c1", vec(1), sparse=terms((9, 1.0)))])
        found = await idx.dual_search(vec(1), user_id="u", now=NOW, sparse=terms((9, 1.0)))
        assert ids(found.core) == ["c1"] and found.core_sparse == []
    finally:
        await idx.close()


async def test_a_pending_upload_is_searched_only_once_published(index: VectorIndex) -> None:
    pending, sparse = {UPLOAD_STATE_KEY: PENDING}, SparseVector(indices=(7,), values=(1.0,))
    await index.upsert(
        [
            temp("a1", vec(1), "alice", doc="up-a", sparse=sparse, **pending),
            temp("a2", vec(1, 0.1), "alice", doc="up-a", **pending),
            temp("b1", vec(1, 0.2), "bob", doc="up-a", **pending),  # same doc id, bob's
            temp("old", vec(1, 0.3), "alice", doc="up-old"),  # written before upload states
        ]
    )
    found = await index.dual_search(vec(1), user_id="alice", now=NOW, sparse=sparse)
    assert ids(found.personal) == ["old"] and found.personal_sparse == []
    await index.publish_temporary("up-a", user_id="alice")
    found = await index.dual_search(vec(1), user_id="alice", now=NOW, sparse=sparse)
    assert sorted(ids(found.personal)) == ["a1", "a2", "old"]
    assert ids(found.personal_sparse) == ["a1"]
    assert {h.payload[UPLOAD_STATE_KEY] for h in found.personal if h.id != "old"} == {READY}
    bob = await index.dual_search(vec(1), user_id="bob", now=NOW)
    assert bob.personal == []  # publishing alice's upload left bob's pending


async def test_pending_points_are_deleted_like_any_upload(index: VectorIndex) -> None:
    pending = {UPLOAD_STATE_KEY: PENDING}
    await index.upsert(
        [
            temp("p1", vec(1), "alice", doc="up-a", **pending),
            temp("p2", vec(1), "alice", doc="up-b", expires_at=NOW_S - 1, **pending),
        ]
    )
    await index.delete_temporary("up-a", user_id="alice")
    await index.delete_expired(NOW)
    assert await index.count() == 0
