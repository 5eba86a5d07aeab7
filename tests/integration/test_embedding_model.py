"""The index knows its embedding model (Qdrant Edge on disk, qdrant-client in local mode on
disk): it records the model when created, refuses another at once, and `reindex` re-embeds the
stored chunks (core knowledge and users' uploads, owners and expiry kept) without the files."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from qdrant_client import AsyncQdrantClient

from pipelines.ports import (
    EmbeddingModel,
    EmbeddingModelMismatch,
    IndexPoint,
    IndexRebuild,
    VectorIndex,
    embedding_model,
)
from service.adapters.vector.edge_reindex import EdgeRebuild
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex
from service.adapters.vector.qdrant_server import QdrantServerIndex
from service.adapters.vector.server_reindex import ServerRebuild
from service.reindexing import reindex
from tests.fakes.embedder import FakeEmbedder
from tests.integration.llm_server import free_port
from tests.qdrant_rest import qdrant_rest_server

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = int(NOW.timestamp()) + 3600
TEXTS = {
    "core-bail": "Bail for a bailable offence is a right: the police must release you.",
    "core-rti": "An RTI application asks a public authority for information within 30 days.",
    "core-fir": "A First Information Report is filed at the police station for a crime.",
}
UPLOADS = {  # id: (owner, text)
    "u1-lease": ("user-1", "My lease says the landlord keeps the bail deposit for repairs."),
    "u2-lease": ("user-2", "The landlord's bail deposit clause in my own lease agreement."),
}


class NamedEmbedder(FakeEmbedder):
    def __init__(self, name: str, dimension: int) -> None:
        super().__init__(dimension)
        self.model_name = name


OLD, SAME_SIZE, NEW = (
    NamedEmbedder("hash-8", 8),
    NamedEmbedder("other-8", 8),
    NamedEmbedder("hash-16", 16),
)

Opener = Callable[[EmbeddingModel | None], Awaitable[VectorIndex]]
Rebuilder = Callable[[EmbeddingModel], Awaitable[IndexRebuild]]


@pytest.fixture(params=["edge", "server", "server-http"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Opener, Rebuilder]]:
    """Edge on disk; qdrant-client's local mode on disk; the same over real HTTP (the Qdrant
    REST stand-in), which also runs the alias switch of a server reindex through REST."""
    folder = tmp_path / "index"
    with contextlib.ExitStack() as stack:
        url = None
        if request.param == "server-http":
            url = stack.enter_context(qdrant_rest_server(free_port()))

        async def open_edge(model: EmbeddingModel | None) -> VectorIndex:
            dimension = model.dimension if model else 8
            opener = functools.partial(QdrantEdgeIndex.open, folder, dimension, model=model)
            return await asyncio.to_thread(opener)

        def client() -> AsyncQdrantClient:
            return AsyncQdrantClient(url=url) if url else AsyncQdrantClient(path=str(folder))

        async def open_server(model: EmbeddingModel | None) -> VectorIndex:
            dimension = model.dimension if model else 8
            where: dict[str, Any] = {"url": url} if url else {"path": str(folder)}
            return await QdrantServerIndex.connect(dimension=dimension, model=model, **where)

        async def rebuild_edge(model: EmbeddingModel) -> IndexRebuild:
            return await asyncio.to_thread(EdgeRebuild.start, folder, model)

        async def rebuild_server(model: EmbeddingModel) -> IndexRebuild:
            return await ServerRebuild.start(client(), "warden", model)

        if request.param == "edge":
            yield open_edge, rebuild_edge
        else:
            yield open_server, rebuild_server


def _payload(doc: str, text: str, owner: str | None = None) -> dict[str, Any]:
    return {
        "chunk_type": "child",
        "parent_id": f"{doc}:p0",
        "parent_text": f"parent of {doc}",
        "text": text,
        "doc_id": doc,
        "source": f"{doc}.md",
        "page": 1,
        "is_temporary": owner is not None,
        "uploaded_by": owner,
        "expires_at": LATER if owner else None,
        "content_hash": f"hash-{doc}",
    }


def _points(embedder: FakeEmbedder) -> list[IndexPoint]:
    core = [IndexPoint(i, embedder.embed_sync(t), _payload(i, t)) for i, t in TEXTS.items()]
    uploads = [
        IndexPoint(i, embedder.embed_sync(t), _payload(i, t, owner))
        for i, (owner, t) in UPLOADS.items()
    ]
    return core + uploads


async def _filled(opener: Opener, embedder: FakeEmbedder | None) -> None:
    index = await opener(embedding_model(embedder) if embedder else None)
    try:
        await index.upsert(_points(embedder or OLD))
    finally:
        await index.close()


async def _refused(opener: Opener, model: EmbeddingModel) -> str:
    with pytest.raises(EmbeddingModelMismatch) as refused:
        await opener(model)
    return str(refused.value)


async def test_the_model_is_recorded_and_another_is_refused_at_once(
    backend: tuple[Opener, Rebuilder],
) -> None:
    opener, _ = backend
    await _filled(opener, OLD)
    await (await opener(embedding_model(OLD))).close()  # the same model opens

    for other in (SAME_SIZE, NEW):
        message = await _refused(opener, embedding_model(other))
        assert "'hash-8' (8 dimensions)" in message
        assert f"'{other.model_name}' ({other.dimension} dimensions)" in message
        assert "`warden reindex`" in message


async def test_an_index_older_than_model_records_is_checked_by_its_vector_size(
    backend: tuple[Opener, Rebuilder],
) -> None:
    opener, _ = backend
    await _filled(opener, None)  # opened without a model: nothing recorded

    assert "'unrecorded' (8 dimensions)" in await _refused(opener, embedding_model(NEW))
    await (await opener(embedding_model(OLD))).close()  # same size: adopted and recorded
    assert "'hash-8'" in await _refused(opener, embedding_model(SAME_SIZE))


async def _search(index: VectorIndex, embedder: FakeEmbedder, user: str) -> dict[str, Any]:
    vector = await embedder.embed_query("bail deposit in my lease")
    found = await index.dual_search(vector, user_id=user, now=NOW)
    return {h.id: h.payload for h in [*found.core, *found.personal]}


async def test_reindex_re_embeds_stored_chunks_and_keeps_owners_and_expiry(
    backend: tuple[Opener, Rebuilder],
) -> None:
    opener, rebuilder = backend
    await _filled(opener, OLD)
    new_model = embedding_model(NEW)

    report = await reindex(await rebuilder(new_model), NEW, new_model)

    assert (report.points, report.core, report.uploads, report.dropped) == (5, 3, 2, 0)
    assert report.previous == embedding_model(OLD)
    index = await opener(new_model)
    try:
        assert await index.count() == 5
        for user, own, other in (
            ("user-1", "u1-lease", "u2-lease"),
            ("user-2", "u2-lease", "u1-lease"),
        ):
            found = await _search(index, NEW, user)
            assert set(TEXTS) <= set(found) and own in found and other not in found
            assert found[own]["expires_at"] == LATER and found[own]["uploaded_by"] == user
            assert found["core-bail"]["text"] == TEXTS["core-bail"]
    finally:
        await index.close()
    assert "'hash-16'" in await _refused(opener, embedding_model(OLD))

    again = await reindex(await rebuilder(new_model), NEW, new_model)
    assert again.skipped and again.points == 0


async def test_an_interrupted_reindex_leaves_the_index_as_it_was(
    backend: tuple[Opener, Rebuilder],
) -> None:
    opener, rebuilder = backend
    await _filled(opener, OLD)
    new_model = embedding_model(NEW)

    rebuild = await rebuilder(new_model)
    async for chunks in rebuild.chunks():  # one page re-embedded, then the run stops
        await rebuild.add([IndexPoint(c.id, NEW.embed_sync("x"), c.payload) for c in chunks])
        break
    await rebuild.close()

    index = await opener(embedding_model(OLD))  # still the old model's index, whole
    try:
        assert await index.count() == 5
        assert "u1-lease" in await _search(index, OLD, "user-1")
    finally:
        await index.close()
    report = await reindex(await rebuilder(new_model), NEW, new_model)
    assert report.points == 5
    await (await opener(new_model)).close()
