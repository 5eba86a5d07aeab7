"""The Embedder contract, held by the fake, the ONNX adapter and the caching wrapper alike."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from pipelines.ports import Embedder
from service.adapters.embedding.caching_embedder import CachingEmbedder
from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder
from tests.fakes.embedder import FakeEmbedder


@pytest.fixture(scope="module")
def onnx() -> OnnxMiniLmEmbedder:
    real = OnnxMiniLmEmbedder()
    real.warm()
    return real


@pytest.fixture(scope="module", params=["fake", "onnx", "cached-onnx"])
def embedder(request: pytest.FixtureRequest, onnx: OnnxMiniLmEmbedder) -> Embedder:
    if request.param == "fake":
        return FakeEmbedder(dimension=384)
    if request.param == "cached-onnx":
        return CachingEmbedder(onnx, max_entries=3)  # small: the suite also runs past evictions
    return onnx


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def norm(v: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in v))


TEXTS = [
    "How do I file a police complaint?",
    "A long passage. " + "The officer in charge must record the information in writing. " * 60,
    "",
    "Steps to file a complaint with the police",
    "!!",
]


def test_implements_the_port_with_its_dimension(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.dimension == 384


async def test_query_vector_has_the_dimension_and_unit_norm(embedder: Embedder) -> None:
    vector = await embedder.embed_query("How do I file a police complaint?")
    assert len(vector) == embedder.dimension
    assert all(isinstance(x, float) for x in vector)
    assert norm(vector) == pytest.approx(1.0, abs=1e-4)


async def test_document_vectors_are_unit_length_even_for_odd_texts(embedder: Embedder) -> None:
    vectors = await embedder.embed_documents(TEXTS)
    assert len(vectors) == len(TEXTS)
    for vector in vectors:
        assert len(vector) == embedder.dimension
        assert norm(vector) == pytest.approx(1.0, abs=1e-4)


async def test_same_text_gives_the_same_vector(embedder: Embedder) -> None:
    first = await embedder.embed_query("procedure to register a report")
    second = await embedder.embed_query("procedure to register a report")
    assert first == pytest.approx(second, abs=1e-6)


async def test_a_batch_equals_one_by_one_in_input_order(embedder: Embedder) -> None:
    batch = await embedder.embed_documents(TEXTS)
    for text, vector in zip(TEXTS, batch, strict=True):
        assert vector == pytest.approx(await embedder.embed_query(text), abs=1e-5)


async def test_empty_list_gives_empty_list(embedder: Embedder) -> None:
    assert await embedder.embed_documents([]) == []


async def test_related_texts_score_higher_than_unrelated(embedder: Embedder) -> None:
    query, related, unrelated = await embedder.embed_documents(
        [
            "How do I file a police complaint?",
            "Steps to file a complaint with the police",
            "Chocolate cake recipe with butter and sugar",
        ]
    )
    assert cosine(query, related) > cosine(query, unrelated) + 0.2


@pytest.mark.parametrize("inner_kind", ["fake", "onnx"])
async def test_the_cache_gives_the_inner_embedders_vectors(
    inner_kind: str, onnx: OnnxMiniLmEmbedder
) -> None:
    inner: Embedder = FakeEmbedder(dimension=384) if inner_kind == "fake" else onnx
    cached = CachingEmbedder(inner)
    texts = [*TEXTS, TEXTS[0]]
    expected = await inner.embed_documents(texts)
    missed = await cached.embed_documents(texts)
    hit = await cached.embed_documents(list(reversed(texts)))
    assert cached.hits == len(set(texts))  # the second call: every distinct text a hit
    for want, got in zip(expected, missed, strict=True):
        assert got == pytest.approx(want, abs=1e-6)
    assert hit == list(reversed(missed))  # from the cache: exactly what the miss returned
    query = TEXTS[0]
    assert await cached.embed_query(query) == await cached.embed_query(query)
    assert await cached.embed_query(query) == pytest.approx(
        await inner.embed_query(query), abs=1e-6
    )
