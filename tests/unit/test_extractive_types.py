"""The kind of answer a question asks for (pipelines/extractive_types.py), the lead a sentence
of that kind gets in the extractive answer, and which passages may give its sentences
(pipelines/extractive.close_passages)."""

from __future__ import annotations

import pytest

from pipelines.extractive import close_passages, extractive_answer, pick_sentences
from pipelines.extractive_types import TYPE_BONUS, asked_kinds, bonus, gives
from pipelines.extractive_units import Sentence
from tests.fakes.embedder import FakeEmbedder

ASKED = [
    # (question, kinds)
    ("How many days does the PIO have to reply?", ("duration",)),
    ("how long will the police keep him", ("duration",)),
    ("What is the time limit for a consumer complaint?", ("duration",)),
    ("RTI ka jawab kitne din me aata hai", ("duration",)),
    ("जवाब कितने दिन में आता है", ("duration",)),
    ("How much maintenance can a wife get?", ("amount",)),
    ("RTI fees kitni hai", ("amount",)),
    ("Is there any fee to go to a Lok Adalat?", ("amount",)),
    ("कितने पैसे लगते हैं", ("amount",)),
    ("Where can I report online fraud?", ("place",)),
    ("In which court can a PIL be filed?", ("place",)),
    ("cyber fraud ki complaint kahan karu", ("place",)),
    ("शिकायत कहाँ करें", ("place",)),
    ("where to complain and how much does it cost", ("amount", "place")),
    # questions that ask no one kind: left to the embedding
    ("When does the landlord have to return my security deposit?", ()),
    ("Who can file a public interest litigation?", ()),
    ("How do I file an FIR?", ()),
    ("how much time does it take", ("duration",)),
    ("What is anticipatory bail?", ()),
    ("What are the charges against my brother?", ()),  # criminal charges, not a price
    ("How much longer will my case take?", ("duration",)),
    ("How much evidence do I need?", ()),
    ("इसमें कितना समय लगता है", ("duration",)),
    ("kitni der lagegi", ("duration",)),
    ("कितना मुआवजा मिलेगा", ("amount",)),
    ("police ne kaha FIR nahi likhenge", ()),  # "kaha": said
    ("My husband beats me, what can I do?", ()),
]  # fmt: skip


@pytest.mark.parametrize(("question", "kinds"), ASKED, ids=[q for q, _ in ASKED])
def test_the_kind_of_answer_asked(question: str, kinds: tuple[str, ...]) -> None:
    assert asked_kinds(question) == kinds


GIVEN = [
    # (sentence, kind, gives it)
    ("30 days from receipt for a normal reply.", "duration", True),
    ("48 hours when the information concerns the life or liberty of a person.", "duration", True),
    ("File the complaint within 2 years of the cause of action.", "duration", True),
    ("Section 125 CrPC is now Section 144 BNSS.", "duration", False),  # a number is no span
    ("A child is any person below 18 years of age.", "duration", False),  # an age
    ("Parents over 60 years old can apply.", "duration", False),
    ("Such conduct does not amount to cruelty.", "amount", False),
    ("Reply within thirty days of the notice.", "duration", True),
    ("The PIO answers RTI applications.", "duration", False),
    ("For central government offices the fee is Rs. 10.", "amount", True),
    ("There is no fee for complaints up to Rs. 5 lakh.", "amount", True),
    ("The court decides a reasonable amount from the income of both sides.", "amount", True),
    ("Article 21 protects life and personal liberty.", "amount", False),
    ("Report online on the portal (cybercrime.gov.in).", "place", True),
    ("Apply to the Judicial Magistrate of the First Class.", "place", True),
    ("Go to the nearest police station.", "place", True),
    ("Never share an OTP with anyone.", "place", False),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "kind", "expected"), GIVEN, ids=[s for s, *_ in GIVEN])
def test_a_sentence_gives_the_kind(sentence: str, kind: str, expected: bool) -> None:
    assert gives(sentence, (kind,)) is expected
    assert bonus(sentence, (kind,)) == (TYPE_BONUS if expected else 0.0)
    assert bonus(sentence, ()) == 0.0


def test_a_sentence_of_the_asked_kind_overtakes_a_slightly_closer_one() -> None:
    closer = Sentence("PIO: Public Information Officer, who answers RTI applications.", 1)
    timed = Sentence("30 days from receipt for a normal reply.", 1)
    vectors = [[1.0, 0.0], [0.97, 0.243]]  # cosines 1.0 and 0.97 to the query
    assert pick_sentences([closer, timed], vectors, [1.0, 0.0], count=2) == [closer, timed]
    picked = pick_sentences([closer, timed], vectors, [1.0, 0.0], count=2, kinds=("duration",))
    assert picked == [timed, closer]


def test_the_lead_is_small_a_far_sentence_stays_behind() -> None:
    closer = Sentence("PIO: Public Information Officer, who answers RTI applications.", 1)
    far = Sentence("30 days from receipt for a normal reply.", 1)
    vectors = [[1.0, 0.0], [0.6, 0.8]]  # cosines 1.0 and 0.6
    picked = pick_sentences([closer, far], vectors, [1.0, 0.0], count=2, kinds=("duration",))
    assert picked == [closer, far]


FAR = [
    # (case, scores, documents, kept passages)
    ("another document far below gives nothing", [0.71, 0.58, 0.50], ["c", "c", "r"], [0, 1]),
    ("the best document's passages stay, however far", [0.71, 0.40, 0.50], ["c", "c", "r"],
     [0, 1]),
    ("another document close by stays", [0.71, 0.60, 0.57], ["c", "r", "g"], [0, 1, 2]),
    ("the best need not come first", [0.50, 0.71, 0.60], ["r", "c", "c"], [1, 2]),
    ("no scores: every passage", [], [], [0, 1, 2]),
    ("0.15 below is far", [0.71, 0.56, 0.60], ["c", "r", "g"], [0, 2]),
    ("found by keywords alone and ranked first: kept, never the best", [0.0, 0.71, 0.50],
     ["r", "c", "g"], [0, 1]),
    ("found by keywords alone further down: far", [0.71, 0.60, 0.0], ["c", "g", "r"], [0, 1]),
    ("a score that is no number is not judged", [float("nan"), 0.9, 0.7], ["r", "c", "g"],
     [0, 1]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("scores", "documents", "kept"), [case[1:] for case in FAR], ids=[case[0] for case in FAR]
)
def test_passages_of_other_documents_far_below_the_best_give_no_sentence(
    scores: list[float], documents: list[str], kept: list[int]
) -> None:
    passages = ["first passage.", "second passage.", "third passage."]
    chosen = close_passages(passages, scores, documents)
    assert len(chosen) == len(passages)  # places kept: citations still number the sources
    assert [i for i, text in enumerate(chosen) if text] == kept
    assert all(chosen[i] == passages[i] for i in kept)


async def test_the_answer_to_a_duration_question_is_the_list_of_time_limits() -> None:
    embedder = FakeEmbedder()
    passages = [
        "The PIO answers requests for information.\n\n## Time limits\n\n"
        "- 30 days from receipt for a normal reply.\n"
        "- 48 hours when the information concerns life or liberty.\n"
        "- 35 days when the request goes through an assistant officer.\n\n"
        "Appeals go to a senior officer of the same office."
    ]
    question = "How many days does the PIO have to reply to a request?"
    query = embedder.embed_sync(question)
    answer = await extractive_answer(passages, query, embedder, count=4, query=question)
    assert answer is not None
    lines = answer.splitlines()[1:]
    assert [line.split(" ", 2)[1] for line in lines] == ["30", "48", "35"]


def test_the_users_own_upload_always_gives_sentences() -> None:
    passages = ["the best.", "the user's lease.", "far away."]
    chosen = close_passages(passages, [0.9, 0.2, 0.2], ["c", "lease", "r"], [False, True, False])
    assert chosen == ["the best.", "the user's lease.", ""]
