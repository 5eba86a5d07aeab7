"""VerdictCache: a text sent again gets its verdict without a second classification, the
cache stays bounded, and it never holds a message's text."""

from __future__ import annotations

import pickle

import pytest

from pipelines.safety.verdict_cache import VerdictCache
from pipelines.state import Classification


class Counting:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, text: str) -> Classification:
        self.asked.append(text)
        return Classification("abusive" if "idiot" in text else "question", ("r",))


@pytest.mark.parametrize(
    ("texts", "asked"),
    [
        (["you idiot", "you idiot", "you idiot"], ["you idiot"]),
        (["hi", "Hi", "hi "], ["hi", "Hi", "hi "]),  # exact text only: no folding
        (["a", "b", "a", "c", "a"], ["a", "b", "c"]),
        (["a", "b", "c", "a"], ["a", "b", "c", "a"]),  # "a" was the oldest of 2: evicted
        (["x" * 11, "x" * 11], ["x" * 11, "x" * 11]),  # over max_chars: never cached
    ],
)
def test_only_new_texts_are_classified(texts: list[str], asked: list[str]) -> None:
    counting = Counting()
    capacity = 3 if texts == ["a", "b", "a", "c", "a"] else 2
    cache = VerdictCache(counting, entries=capacity, max_chars=10)

    verdicts = [cache(text) for text in texts]

    assert counting.asked == asked
    assert verdicts == [Counting()(text) for text in texts]
    assert len(cache) <= capacity


def test_a_hit_refreshes_the_entry() -> None:
    counting = Counting()
    cache = VerdictCache(counting, entries=2)
    for text in ["a", "b", "a", "c", "a"]:  # "a" was used again before "c": "b" goes
        cache(text)
    assert counting.asked == ["a", "b", "c"]


def test_the_cache_holds_no_text() -> None:
    cache = VerdictCache(Counting())
    secret = "my aadhaar is 2345 6789 0123, you idiot"
    cache(secret)
    held = pickle.dumps({k: v for k, v in vars(cache).items() if not callable(v)})
    assert len(cache) == 1
    assert b"aadhaar" not in held and b"2345" not in held and b"idiot" not in held


def test_a_zero_capacity_cache_classifies_every_time() -> None:
    counting = Counting()
    cache = VerdictCache(counting, entries=0)
    cache("a")
    cache("a")
    assert counting.asked == ["a", "a"]
