"""Lists in extractive answers: intros read into items, items kept together and in order,
how-to questions answered with their steps, PDF lines rejoined, one embedding call."""

from __future__ import annotations

import pytest

from pipelines.extractive import EXTRACTIVE_LABEL, extractive_answer, split_sentences
from pipelines.extractive_steps import arrange, asks_how, render_lines
from pipelines.extractive_units import Sentence
from tests.fakes.embedder import FakeEmbedder

REFUSED = """## If the police refuse to register your FIR

The police must register an FIR when the information discloses a cognizable offence. If the \
police still refuse:

- Send the substance of your information in writing to the Superintendent of Police (SP).
- Apply to the Judicial Magistrate, who can order the police to register and investigate.
- Approach the DLSA for free legal aid if you cannot afford a lawyer.
"""
STEPS = """## How to file an RTI application

1. Write a short application in English, Hindi or the official language of the area.
2. Pay the application fee. For central government offices the fee is Rs. 10.
3. Keep a copy and the proof of sending.
"""
AWARD = """Under Section 21 of the Act:

- the award is treated as a decree of a civil court;
- it is final and binding on all parties;
- **no appeal** lies against it.
"""
GLOSSARY = """Glossary of Common Legal Aid Terms
General legal information, not legal advice. For help with your own case, contact your
District Legal Services Authority (DLSA) or a lawyer.
Rights and remedies
RTI: Right to Information under the RTI Act, 2005.
Zero FIR: an FIR registered at any police station regardless of where the offence happened,
then transferred to the right police station."""


@pytest.mark.parametrize(
    ("question", "how"),
    [
        ("How do I file an RTI application?", True),
        ("What are the steps to get bail?", True),
        ("FIR kaise file kare?", True),
        ("What is the procedure for a first appeal?", True),
        ("The police refused my FIR. What can I do?", True),
        ("What is a Lok Adalat?", False),
        ("Who is eligible for free legal aid?", False),
        ("However, is bail a right?", False),  # "how" inside another word
    ],
)
def test_how_to_questions(question: str, how: bool) -> None:
    assert asks_how(question) is how


def test_an_intro_becomes_the_lead_of_whole_sentence_items() -> None:
    units = split_sentences([REFUSED])
    assert [u.text for u in units] == [
        "The police must register an FIR when the information discloses a cognizable offence.",
        "Send the substance of your information in writing to the Superintendent of Police (SP).",
        "Apply to the Judicial Magistrate, who can order the police to register and investigate.",
        "Approach the DLSA for free legal aid if you cannot afford a lawyer.",
    ]
    assert units[0].group is None and {u.group for u in units[1:]} == {1}
    assert all(u.lead == "If the police still refuse:" for u in units[1:])
    assert units[1].scored_text.startswith("If the police still refuse: Send")


def test_fragment_items_are_read_with_their_intro_and_lose_their_markup() -> None:
    units = split_sentences([AWARD])
    assert [u.text for u in units] == [
        "Under Section 21 of the Act: the award is treated as a decree of a civil court.",
        "Under Section 21 of the Act: it is final and binding on all parties.",
        "Under Section 21 of the Act: no appeal lies against it.",
    ]
    assert all(u.joined for u in units)


def test_numbered_steps_keep_their_numbers_and_a_short_step_is_kept() -> None:
    units = split_sentences([STEPS, "1. Go to the police station.\n2. Ask for a copy."])
    assert [u.marker for u in units] == ["1.", "2.", "3.", "1.", "2."]
    assert (
        units[1].text
        == "Pay the application fee. For central government offices the fee is Rs. 10."
    )
    assert units[0].section == "How to file an RTI application"
    assert units[3].text == "Go to the police station."


def test_wrapped_pdf_lines_are_rejoined_and_headings_and_stubs_dropped() -> None:
    texts = [u.text for u in split_sentences([GLOSSARY])]
    assert texts == [
        "General legal information, not legal advice.",
        "For help with your own case, contact your District Legal Services Authority (DLSA) or "
        "a lawyer.",
        "Zero FIR: an FIR registered at any police station regardless of where the offence "
        "happened, then transferred to the right police station.",
    ]


def test_an_intro_without_items_is_dropped() -> None:
    texts = [
        u.text
        for u in split_sentences(
            [
                "The courts can issue five kinds of writs:\n\n"
                "Writ | Meaning | Used when\nMandamus | x | y"
            ]
        )
    ]
    assert texts == []


def unit(text: str, citation: int = 1, group: int | None = None, **extra: str) -> Sentence:
    return Sentence(text, citation, group, **extra)  # type: ignore[arg-type]


A, B, C = (unit(f"Step {n} is a whole sentence here.", 1, 7, marker=f"{n}.") for n in "123")
PROSE = unit("A prose sentence ranked first here.", 2)
OTHER = unit("Another prose sentence of passage one.", 1)


def test_picked_items_of_one_list_are_shown_together_in_list_order() -> None:
    picked, numbered = arrange([C, PROSE, A, OTHER], [A, B, C, OTHER, PROSE], count=3)
    assert picked == [A, C, PROSE] and not numbered


def test_a_how_to_question_gets_the_whole_list_in_order_with_numbers() -> None:
    everything = [OTHER, A, B, C, PROSE]
    picked, numbered = arrange([C, PROSE, OTHER], everything, count=2, how_to="how do i")
    assert picked == [A, B, C] and numbered
    lines = render_lines(picked, numbered=numbered)
    assert lines[0] == "- 1. Step 1 is a whole sentence here. [1]"


def test_a_how_to_question_without_a_list_keeps_each_passage_in_reading_order() -> None:
    everything = [OTHER, PROSE, unit("Later sentence of passage one here.", 1)]
    ranked = [everything[2], PROSE, OTHER]
    picked, numbered = arrange(ranked, everything, count=3, how_to="how do i")
    assert picked == [OTHER, everything[2], PROSE] and not numbered


def test_a_list_is_found_by_its_heading_when_no_item_ranks_high() -> None:
    steps = [
        unit(f"Do thing number {n} now please.", 1, 3, section="How to file an FIR")
        for n in range(2)
    ]
    ranked = [OTHER, PROSE, steps[1]]
    picked, _ = arrange(ranked, [OTHER, *steps, PROSE], count=3, how_to="How do I file an FIR?")
    assert picked == steps


LIMITS = [
    unit(text, 1, 5, section="Time limits")
    for text in (
        "30 days from receipt for a normal reply.",
        "48 hours when the information concerns life or liberty.",
        "35 days when the application goes through an APIO.",
    )
]


def test_a_short_list_giving_the_asked_kind_is_the_whole_answer() -> None:
    ranked = [PROSE, OTHER, LIMITS[2], LIMITS[0]]
    everything = [OTHER, *LIMITS, PROSE]
    picked, numbered = arrange(ranked, everything, count=3, kinds=("duration",))
    assert picked == LIMITS and not numbered
    # not asked for a span of time, or the item not among the lines shown: as before
    assert arrange(ranked, everything, count=3)[0] == [PROSE, OTHER, LIMITS[2]]
    assert arrange(ranked, everything, count=2, kinds=("duration",))[0] == [PROSE, OTHER]


def test_a_list_whose_items_do_not_all_give_the_kind_is_not_shown_whole() -> None:
    mixed = [*LIMITS, unit("The PIO must give reasons for a refusal.", 1, 5)]
    picked, _ = arrange([mixed[0], PROSE], [*mixed, PROSE], count=2, kinds=("duration",))
    assert picked == [mixed[0], PROSE]
    longer = [unit(f"{n} days in case number {n}.", 1, 6) for n in range(1, 8)]  # too long
    picked, _ = arrange([longer[0], PROSE], [*longer, PROSE], count=2, kinds=("duration",))
    assert picked == [longer[0], PROSE]


def test_a_how_to_question_keeps_its_steps_before_a_list_of_the_kind() -> None:
    everything = [A, B, C, *LIMITS, PROSE]
    picked, numbered = arrange(
        [A, LIMITS[0], PROSE], everything, count=3, how_to="how do i", kinds=("duration",)
    )
    assert picked == [A, B, C] and numbered


def test_items_must_give_the_kind_in_their_own_words_not_their_heading() -> None:
    fees = [
        unit(text, 1, 8, section="Court fees", lead="Court fees:")
        for text in ("two photographs.", "an identity card.", "a signed form.")
    ]
    best = unit("The court fee for a petition is Rs. 500.", 2)
    picked, _ = arrange([best, fees[0]], [*fees, best], count=2, kinds=("amount",))
    assert picked == [best, fees[0]]


def test_one_line_above_the_list_that_gives_the_kind_stays() -> None:
    appeal = unit("File a first appeal within 30 days of the refusal.", 1)
    ranked = [PROSE, appeal, LIMITS[1]]
    picked, _ = arrange(ranked, [OTHER, *LIMITS, appeal, PROSE], count=3, kinds=("duration",))
    assert picked == [appeal, *LIMITS]


def test_render_reads_the_intro_once_and_joins_fragments() -> None:
    refused = split_sentences([REFUSED])[1:3]
    assert render_lines(refused, numbered=False) == [
        "- If the police still refuse: send the substance of your information in writing to the "
        "Superintendent of Police (SP). [1]",
        "- Apply to the Judicial Magistrate, who can order the police to register and "
        "investigate. [1]",
    ]
    award = split_sentences([AWARD])
    assert render_lines([award[0], award[2]], numbered=False) == [
        "- Under Section 21 of the Act: the award is treated as a decree of a civil court; "
        "no appeal lies against it. [1]"
    ]


async def test_the_rti_steps_answer_a_how_to_question_in_one_embedding_call() -> None:
    embedder = FakeEmbedder()
    question = "How do I file an RTI application?"
    answer = await extractive_answer(
        [STEPS, GLOSSARY], embedder.embed_sync(question), embedder, count=3, query=question
    )
    assert answer is not None and embedder.calls == 1
    assert answer.splitlines() == [
        EXTRACTIVE_LABEL,
        "- 1. Write a short application in English, Hindi or the official language of the area."
        " [1]",
        "- 2. Pay the application fee. For central government offices the fee is Rs. 10. [1]",
        "- 3. Keep a copy and the proof of sending. [1]",
    ]
