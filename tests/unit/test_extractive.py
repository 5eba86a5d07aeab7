"""Extractive answers: sentence split, similarity pick, citations, one embedding call."""

from __future__ import annotations

import pytest

from pipelines.extractive import (
    EXTRACTIVE_LABEL,
    Sentence,
    extractive_answer,
    pick_sentences,
    split_sentences,
)
from tests.fakes.embedder import FakeEmbedder


@pytest.mark.parametrize(
    ("passages", "expected"),
    [
        ([], []),
        (["Too short. Also short."], []),
        (
            ["The first sentence is long enough. The second one\nspans two lines here!"],
            [
                Sentence("The first sentence is long enough.", 1),
                Sentence("The second one spans two lines here!", 1),
            ],
        ),
        (
            [
                "Heading without a stop\n\nThen a paragraph sentence follows.",
                "Is this another passage here?",
            ],
            [
                Sentence("Then a paragraph sentence follows.", 1),
                Sentence("Is this another passage here?", 2),
            ],
        ),
        (
            [
                "Steps to follow on the day:\n"
                "- bring the written complaint with you\n- an identity card"
            ],
            [
                Sentence("Steps to follow on the day:", 1),
                Sentence("bring the written complaint with you", 1),
            ],
        ),
        (
            [
                "# Filing an FIR (First Information Report)\n"
                "> General information, not legal advice.\n"
                "| Step | Where to go today |\nThe police must register a cognizable offence."
            ],
            [Sentence("The police must register a cognizable offence.", 1)],
        ),
    ],
)
def test_split_sentences(passages: list[str], expected: list[Sentence]) -> None:
    assert split_sentences(passages) == expected


def test_pick_sentences_best_first_and_ties_in_passage_order() -> None:
    sentences = [Sentence(f"sentence number {n}", n) for n in range(1, 5)]
    vectors = [[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.0, 1.0]]
    picked = pick_sentences(sentences, vectors, [0.0, 1.0], count=3)
    assert [s.citation for s in picked] == [2, 4, 3]
    assert pick_sentences(sentences, vectors, [0.0, 1.0], count=0) == []


async def test_extractive_answer_cites_the_closest_sentences_with_one_call() -> None:
    embedder = FakeEmbedder()
    passages = [
        "Bail is the temporary release of an accused person. Courts set bail conditions often.",
        "A landlord must return the security deposit within one month. Rent is due monthly.",
    ]
    query = embedder.embed_sync("when must the landlord return the security deposit")
    answer = await extractive_answer(passages, query, embedder, count=2)
    assert answer is not None and embedder.calls == 1
    assert answer.splitlines() == [
        EXTRACTIVE_LABEL,
        "- A landlord must return the security deposit within one month. [2]",
        answer.splitlines()[2],
    ]
    assert len(answer.splitlines()) == 3


async def test_no_sentences_or_no_query_vector_means_no_extract_and_no_call() -> None:
    embedder = FakeEmbedder()
    assert await extractive_answer(["tiny"], [1.0], embedder, count=3) is None
    assert (
        await extractive_answer(["A sentence long enough to keep."], [], embedder, count=3) is None
    )
    assert embedder.calls == 0
