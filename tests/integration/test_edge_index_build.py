"""The HNSW index of a Qdrant Edge shard: built by `warden ingest` (in process) and, under
`warden serve`, aside in a child process once enough points were written, while searches go on.

Edge's default indexing threshold (10 MB of vectors) is lowered to 1 KB here, so a few hundred
8-d points get a graph; whether a segment has one is read from the folder (graph.bin)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import qdrant_edge as qe

from pipelines.ports import IndexBuilder, IndexPoint
from service.adapters.vector import edge_aside, edge_shard
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex
from service.knowledge import KnowledgeService
from tests.contract.test_vector_index_contract import NOW, point, temp
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder

DIM = 8


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    optimizers = qe.EdgeOptimizersConfig(
        deleted_threshold=1e-9, vacuum_min_vector_number=1, indexing_threshold=1
    )
    monkeypatch.setattr(edge_shard, "OPTIMIZERS", optimizers)


def points(count: int, *, first: int = 0, seed: int = 0) -> list[IndexPoint]:
    vectors = np.random.default_rng(seed).standard_normal((count, DIM)).astype(np.float32)
    return [point(f"c{first + n}", v.tolist(), doc=f"d{n // 10}") for n, v in enumerate(vectors)]


@pytest.fixture
async def index(tmp_path: Path) -> AsyncIterator[QdrantEdgeIndex]:
    idx = QdrantEdgeIndex.open(tmp_path / "edge", DIM)
    yield idx
    await idx.close()


async def test_optimize_builds_an_hnsw_graph(index: QdrantEdgeIndex) -> None:
    await index.upsert(points(300))
    assert index.index_info().hnsw_segments == 0
    await index.optimize()
    info = index.index_info()
    assert info.hnsw_segments >= 1
    assert info.points == 300


async def test_the_ingest_builds_the_index_after_syncing(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    for n in range(8):
        (kb / f"note-{n}.txt").write_text(f"Note {n}. " + "A sentence of the note. " * 200)
    index = QdrantEdgeIndex.open(tmp_path / "edge", DIM)
    assert isinstance(index, IndexBuilder)
    knowledge = KnowledgeService(FakeEmbedder(DIM), index, FakePiiDetector(), tmp_path)
    report, _ = await knowledge.sync([kb], delete_missing=False, progress=lambda event: None)
    assert report.added == 8
    assert index.index_info().points * DIM * 4 > 1024  # over the lowered threshold
    assert index.index_info().hnsw_segments >= 1
    await index.close()


async def test_a_build_aside_swaps_in_a_graph_and_keeps_the_writes_made_meanwhile(
    index: QdrantEdgeIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    await index.upsert(points(300))
    child_started, child_may_end = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    real_child = edge_aside.optimize_in_child

    def slow_child(staged: Path, running: set[Any]) -> None:
        loop.call_soon_threadsafe(child_started.set)
        real_child(staged, running)
        asyncio.run_coroutine_threadsafe(child_may_end.wait(), loop).result(timeout=60)

    monkeypatch.setattr(edge_aside, "optimize_in_child", slow_child)
    build = asyncio.create_task(index.optimize_aside())
    await child_started.wait()
    # while the child optimizes the copy: searches answer, and writes land
    found = await index.dual_search([1.0] * DIM, user_id="alice", now=NOW)
    assert len(found.core) == 15
    await index.upsert([temp("t-new", [1.0] * DIM, user="alice")])
    await index.delete_document("d0")
    child_may_end.set()
    assert await build is True
    info = index.index_info()
    assert info.hnsw_segments >= 1
    assert info.points == 300 - 10 + 1
    found = await index.dual_search([1.0] * DIM, user_id="alice", now=NOW)
    assert [h.id for h in found.personal] == ["t-new"]
    assert not {h.id for h in found.core} & {f"c{n}" for n in range(10)}  # d0's points
    assert not (index._path / edge_aside.OPTIMIZING).exists()  # type: ignore[operator]


async def test_searches_run_while_the_child_optimizes(
    index: QdrantEdgeIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    await index.upsert(points(2000))
    window: list[float] = []
    real_child = edge_aside.optimize_in_child

    def timed_child(staged: Path, running: set[Any]) -> None:
        window.append(time.perf_counter())
        real_child(staged, running)
        window.append(time.perf_counter())

    monkeypatch.setattr(edge_aside, "optimize_in_child", timed_child)
    build = asyncio.create_task(index.optimize_aside())
    answered: list[float] = []
    while not build.done():
        await index.dual_search([0.5] * DIM, user_id="bob", now=NOW)
        answered.append(time.perf_counter())
        await asyncio.sleep(0.002)
    assert await build is True
    started, ended = window
    # an optimize in this process holds the GIL: no search would end while it runs
    assert sum(started < at < ended for at in answered) >= 2
    assert index.index_info().hnsw_segments >= 1


async def test_a_compaction_during_a_build_aside_wins(
    index: QdrantEdgeIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    await index.upsert(points(200))
    compacted = asyncio.Event()
    loop = asyncio.get_running_loop()

    def child_during_compaction(staged: Path, running: set[Any]) -> None:
        asyncio.run_coroutine_threadsafe(index.compact(), loop).result(timeout=60)
        loop.call_soon_threadsafe(compacted.set)

    monkeypatch.setattr(edge_aside, "optimize_in_child", child_during_compaction)
    assert await index.optimize_aside() is False  # the copy predates the compaction
    assert compacted.is_set()
    assert index.builds == 0
    assert (await index.count()) == 200


async def test_a_build_starts_by_itself_after_enough_points(tmp_path: Path) -> None:
    index = QdrantEdgeIndex.open(tmp_path / "edge", DIM, optimize_after=250)
    await index.upsert(points(200))
    assert index._building is None
    await index.upsert(points(100, first=200, seed=1))
    building = index._building
    assert building is not None
    assert await building is True
    assert index.builds == 1
    assert index.unindexed == 0
    assert index.index_info().hnsw_segments >= 1
    await index.close()


async def test_serve_builds_in_the_background_and_other_commands_do_not(tmp_path: Path) -> None:
    from service.bootstrap.adapters import open_index
    from service.settings import Settings

    def settings(**extra: int) -> Settings:
        return Settings(_env_file=None, data_dir=tmp_path, **extra)  # type: ignore[call-arg]

    for config, serving, expected in [
        (settings(), True, None),  # off by default
        (settings(index_build_after=10_000), True, 10_000),
        (settings(index_build_after=500), True, 500),
        (settings(index_build_after=0), True, None),
        (settings(index_build_after=500), False, None),
    ]:
        index = await open_index(config, DIM, serving=serving)
        assert isinstance(index, QdrantEdgeIndex)
        assert index.optimize_after == expected
        await index.close()


async def test_a_new_shard_has_every_payload_index_before_any_point(index: QdrantEdgeIndex) -> None:
    from service.adapters.vector import filters as vf

    schema = index._shard.info().payload_schema  # type: ignore[union-attr]
    assert set(vf.PAYLOAD_INDEXES) <= set(schema)
    assert (await index.count()) == 0


async def test_closing_the_index_stops_a_build_aside(tmp_path: Path) -> None:
    index = QdrantEdgeIndex.open(tmp_path / "edge", DIM, optimize_after=1)
    await index.upsert(points(3000))
    assert index._building is not None
    for _ in range(6000):  # until the copy is taken and the child runs
        if index._children:
            break
        await asyncio.sleep(0.005)
    (child,) = index._children
    started = time.perf_counter()
    await index.close()
    assert time.perf_counter() - started < 10
    assert child.returncode == -9  # killed, not waited for
    assert not (tmp_path / "edge" / edge_aside.OPTIMIZING).exists()
    reopened = QdrantEdgeIndex.open(tmp_path / "edge", DIM)
    assert (await reopened.count()) == 3000
    await reopened.close()
