"""Extractive answers: sentence split, similarity pick, citations, one embedding call."""

from __future__ import annotations

import pytest

from pipelines.extractive import (
    EXTRACTIVE_LABEL,
    Sentence,
    choose_sentences,
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
            [  # the intro is read into each fragment item, never shown alone
                Sentence(
                    "Steps to follow on the day: bring the written complaint with you.",
                    1,
                    group=1,
                    lead="Steps to follow on the day:",
                    joined=True,
                ),
                Sentence(
                    "Steps to follow on the day: an identity card.",
                    1,
                    group=1,
                    lead="Steps to follow on the day:",
                    joined=True,
                ),
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


FILLER = [f"Paragraph {n} talks about rent, repairs and the notice period." for n in range(30)]
DEPOSIT = "A landlord must return the security deposit within one month."


async def test_only_the_preselected_candidates_are_embedded_in_one_call() -> None:
    embedder = FakeEmbedder()
    passages = [" ".join(FILLER[:15]), " ".join([*FILLER[15:], DEPOSIT])]
    question = "when must the landlord return the security deposit"
    picked = await choose_sentences(
        passages,
        embedder.embed_sync(question),
        embedder,
        count=2,
        query=question,
        candidates=5,
    )
    [batch] = embedder.batches
    assert len(batch) == 5 and DEPOSIT in batch
    assert picked[0] == Sentence(DEPOSIT, 2) and len(picked) == 2


async def test_matched_children_bring_a_sentence_the_words_miss_into_the_shortlist() -> None:
    embedder = FakeEmbedder()
    hidden = "Fair wear and tear is never the tenant's cost to make good."
    await choose_sentences(
        [" ".join([*FILLER[:20], hidden])],
        embedder.embed_sync("anything"),
        embedder,
        count=1,
        query="unrelated words",
        matched=[[f"... the notice period. {hidden}"]],
        candidates=2,
    )
    assert hidden in embedder.batches[0]


async def test_never_fewer_candidates_than_sentences_asked_for_and_none_for_zero() -> None:
    embedder = FakeEmbedder()
    passages = [" ".join(FILLER)]
    vector = embedder.embed_sync("rent")
    picked = await choose_sentences(passages, vector, embedder, count=4, candidates=1)
    assert len(picked) == 4 and len(embedder.batches[0]) == 4
    assert await extractive_answer(passages, vector, embedder, count=0) is None
    assert len(embedder.batches) == 1


async def test_a_sentence_repeated_across_passages_is_embedded_and_cited_once() -> None:
    embedder = FakeEmbedder()
    passage = f"{DEPOSIT} Rent is due on the first day of every month."
    picked = await choose_sentences(
        [passage, f"Repairs are the landlord's duty in most leases. {DEPOSIT}", passage],
        embedder.embed_sync("security deposit"),
        embedder,
        count=3,
        query="security deposit",
    )
    assert embedder.batches[0].count(DEPOSIT) == 1 and len(embedder.batches[0]) == 3
    assert picked[0] == Sentence(DEPOSIT, 1) and len(picked) == 3
