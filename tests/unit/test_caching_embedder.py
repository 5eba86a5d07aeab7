"""CachingEmbedder: a bounded LRU of vectors per text; misses in one inner call; still metered."""

from __future__ import annotations

import pytest

from pipelines.metering import metered, metering
from pipelines.ports import Embedder
from service.adapters.embedding.caching_embedder import CachingEmbedder
from tests.fakes.embedder import FakeEmbedder

A, B, C, D = (f"sentence {word} about bail and deposits" for word in ("one", "two", "three", "4"))


async def test_implements_the_port_and_only_misses_reach_the_inner_embedder() -> None:
    inner = FakeEmbedder()
    cache = CachingEmbedder(inner, max_entries=10)
    assert isinstance(cache, Embedder) and cache.dimension == inner.dimension
    first = await cache.embed_documents([A, B])
    second = await cache.embed_documents([B, C, A])
    assert inner.batches == [[A, B], [C]]
    assert second == [first[1], inner.embed_sync(C), first[0]]
    assert (cache.hits, cache.misses, len(cache)) == (2, 3, 3)
    assert await cache.embed_documents([A, C]) == [first[0], second[1]]
    assert len(inner.batches) == 2  # all cached: no inner call at all


async def test_a_text_repeated_in_one_batch_is_embedded_once() -> None:
    inner = FakeEmbedder()
    vectors = await CachingEmbedder(inner).embed_documents([A, B, A])
    assert inner.batches == [[A, B]] and vectors[0] == vectors[2]
    assert vectors[0] is not vectors[2]


async def test_least_recently_used_entries_are_evicted_at_the_bound() -> None:
    inner = FakeEmbedder()
    cache = CachingEmbedder(inner, max_entries=2)
    await cache.embed_documents([A, B])
    await cache.embed_documents([A])  # A is now the most recently used
    await cache.embed_documents([C])  # evicts B, not A
    assert len(cache) == 2
    await cache.embed_documents([A, C])
    await cache.embed_documents([B])
    assert inner.batches == [[A, B], [C], [B]]


async def test_a_batch_larger_than_the_bound_is_still_answered_in_full() -> None:
    inner = FakeEmbedder()
    cache = CachingEmbedder(inner, max_entries=2)
    vectors = await cache.embed_documents([A, B, C, D])
    assert vectors == [inner.embed_sync(t) for t in (A, B, C, D)]
    assert len(cache) == 2
    await cache.embed_documents([C, D])  # the last two stayed
    assert len(inner.batches) == 1


async def test_zero_entries_caches_nothing() -> None:
    inner = FakeEmbedder()
    cache = CachingEmbedder(inner, max_entries=0)
    await cache.embed_documents([A])
    await cache.embed_documents([A])
    await cache.embed_query(A)
    await cache.embed_query(A)
    assert len(cache) == 0 and len(inner.batches) == 2 and inner.calls == 4


async def test_queries_are_cached_apart_from_documents() -> None:
    inner = FakeEmbedder()
    cache = CachingEmbedder(inner)
    assert await cache.embed_query(A) == await cache.embed_query(A)
    assert inner.calls == 1
    await cache.embed_documents([A])  # an asymmetric model embeds a document differently
    assert inner.batches == [[A]] and len(cache) == 2


async def test_returned_vectors_are_copies_that_cannot_corrupt_the_cache() -> None:
    cache = CachingEmbedder(FakeEmbedder())
    [vector] = await cache.embed_documents([A])
    vector[0] = 99.0
    query = await cache.embed_query(B)
    query.clear()
    assert (await cache.embed_documents([A]))[0][0] != 99.0
    assert len(await cache.embed_query(B)) == cache.dimension


async def test_the_cache_holds_no_text() -> None:
    cache = CachingEmbedder(FakeEmbedder())
    await cache.embed_documents(["My lease names Asha Rao"])
    keys = cache.cached_keys()
    assert len(keys) == 1 and all(b"Asha" not in key for key in keys)


async def test_a_call_answered_from_the_cache_is_still_metered() -> None:
    inner = FakeEmbedder()
    port = metered(CachingEmbedder(inner), "embed")
    await port.embed_documents([A])
    with metering() as calls:
        await port.embed_documents([A])
        await port.embed_query(B)
        await port.embed_query(B)
    assert calls.embed == 3 and inner.calls == 2


async def test_an_inner_embedder_returning_too_few_vectors_is_an_error() -> None:
    class Short(FakeEmbedder):
        async def embed_documents(self, texts: object) -> list[list[float]]:
            return []

    with pytest.raises(RuntimeError):
        await CachingEmbedder(Short()).embed_documents([A])


def test_other_attributes_are_the_inner_adapters() -> None:
    inner = FakeEmbedder()
    assert CachingEmbedder(inner).embed_sync(A) == inner.embed_sync(A)
    with pytest.raises(AttributeError):
        _ = CachingEmbedder(inner)._missing
