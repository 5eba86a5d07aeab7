"""The support threshold of the answer gate, measured on sample-KB passages.

Each passage is a section of a sample_kb document, as retrieval hands a parent to the model.
The supported sentences copy or paraphrase it, as a model answering from it would; the
unsupported ones are written about the same topic but state what the passage does not say
(numbers, bodies, rights made up), the confident answers the gate exists to stop.

Measured (support(), content-word overlap with the passage and the question): 16 supported
0.75-1.00 (median 1.00), 12 unsupported 0.00-0.57 (median 0.14); SUPPORT_THRESHOLD = 0.6
sits in the gap. The gap is narrow (a made-up remedy phrased with the passage's words,
"file a writ petition in the Supreme Court", scores 0.57). Token overlap cannot see a changed
number or a negation inside copied words ("within 24 hours" for "within fourteen days" scores
high when most words are copied): those pass, and are listed below as the known blind spot.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from pipelines.answer_gate import SUPPORT_THRESHOLD, support

KB = Path(__file__).resolve().parents[2] / "sample_kb"


def section(name: str, heading: str) -> str:
    """The text of one section (up to the next heading) of a Markdown or text document."""
    text = (KB / name).read_text(encoding="utf-8")
    start = text.index(heading)
    end = min((i for i in (text.find("\n## ", start + 1),) if i > 0), default=len(text))
    return text[start:end]


FIR_REFUSED = section("fir-first-information-report.md", "## If the police refuse")
FIR_HOW = section("fir-first-information-report.md", "## How to file an FIR")
RTI_HOW = section("rti-right-to-information.md", "## How to file an RTI application")
BAIL = (KB / "bail-basics.txt").read_text(encoding="utf-8").split("Anticipatory bail")[0]

SUPPORTED = [
    (FIR_REFUSED, "You can send your information in writing to the Superintendent of Police."),
    (FIR_REFUSED, "The Judicial Magistrate can order the police to register and investigate."),
    (FIR_REFUSED, "If you cannot afford a lawyer, approach the DLSA for free legal aid."),
    (
        FIR_REFUSED,
        "Registering an FIR is mandatory when the information shows a cognizable offence.",
    ),
    (FIR_HOW, "Go to the police station where the offence happened and tell the officer."),
    (FIR_HOW, "You are entitled to a free copy of the FIR, so ask for it."),
    (FIR_HOW, "The officer must write down your information and read it back to you."),
    (RTI_HOW, "Address the application to the PIO of the office that holds the information."),
    (RTI_HOW, "For central government offices the fee is Rs. 10."),
    (RTI_HOW, "Citizens below the poverty line pay no fee if they attach proof."),
    (BAIL, "For a bailable offence, bail is a right and the police must release the person."),
    (BAIL, "Bail does not mean the case is over; the accused need not stay in custody."),
    # looser paraphrases, in other words than the passage's
    (FIR_REFUSED, "A magistrate has the power to direct the police to investigate it."),
    (FIR_HOW, "Tell the officer the date, time and place, and who was involved."),
    (RTI_HOW, "You don't need to explain why you want the information."),
    (BAIL, "Bail lets an accused person stay out of custody while the case goes on."),
]
UNSUPPORTED = [
    (FIR_REFUSED, "You should file a writ petition in the Supreme Court within thirty days."),
    (FIR_REFUSED, "The National Human Rights Commission pays compensation for refusals."),
    (FIR_REFUSED, "Hire a private detective to gather evidence before going back."),
    (FIR_HOW, "An FIR must be notarised and stamped before submission."),
    (FIR_HOW, "Online registration requires an Aadhaar-linked mobile number and a fee."),
    (FIR_HOW, "Bring two passport photographs and your landlord's consent letter."),
    (RTI_HOW, "The Chief Information Commissioner decides appeals within one week."),
    (RTI_HOW, "Applicants must explain the reasons for their request in an affidavit."),
    (RTI_HOW, "Journalists receive priority processing and a discounted rate."),
    (BAIL, "Anyone arrested for murder is automatically released after ninety days."),
    (BAIL, "A lawyer must deposit ten thousand rupees with the magistrate as security."),
    (BAIL, "Juveniles are sent to a reformatory school instead of prison."),
]
BLIND_SPOTS = [  # unsupported, but built from the passage's own words: they pass
    (FIR_REFUSED, "The police must register your FIR within three days of the enquiry."),
]


def test_the_measured_threshold_separates_supported_from_unsupported_sentences() -> None:
    good = [support(sentence, [passage]) for passage, sentence in SUPPORTED]
    bad = [support(sentence, [passage]) for passage, sentence in UNSUPPORTED]
    print(sorted(good), sorted(bad), statistics.median(good), statistics.median(bad))
    assert min(good) >= SUPPORT_THRESHOLD > max(bad)
    assert min(good) >= 0.74 and max(bad) <= 0.58  # the figures in the docstring


@pytest.mark.parametrize(("passage", "sentence"), BLIND_SPOTS)
def test_copied_words_with_a_changed_fact_are_the_known_blind_spot(
    passage: str, sentence: str
) -> None:
    assert support(sentence, [passage]) >= SUPPORT_THRESHOLD
