"""The shipped insult and injection models on the hard negatives: still questions.

Every benign table of the unit tests (profanity, rude substrings, violent verbs, injection
look-alikes, quoted mentions, PII in a request) plus long pasted-text requests, routed by the
service default: the rules with the shipped models and the toxicity scorer, as loaded by
service/pipeline_config.py. A model may only add rejects, so the unit tables' attacks stay
rejected; these check it adds none where it must not, and that it does add what it is for.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules
from service.bootstrap import toxicity_scorer
from service.pipeline_config import load_safety_rules
from tests.unit import (
    test_safety_abuse,
    test_safety_classify,
    test_safety_greeting,
    test_safety_injection,
    test_safety_injection_families,
    test_safety_roleplay_languages,
    test_safety_second_look_questions,
    test_safety_tuning,
    test_safety_victim_reports,
)

LONG_REQUESTS = [
    "Translate the following letter into Hindi for my mother: Dear Sir, I am writing to inform "
    "you that the rent for March has been paid in full by bank transfer on the fifth, and I "
    "request a receipt for my records.",
    "Here is clause 7 of my lease: The tenant shall not sublet the premises or any part thereof "
    "without the prior written consent of the landlord, which shall not be unreasonably "
    "withheld. Does this mean I can never sublet?",
    "Can you rewrite this complaint so it sounds more formal? My neighbour plays loud music "
    "every night until 2 am and when I asked him to stop he shouted at me and slammed the door.",
    "Summarize the following text: The Consumer Protection Act 2019 set up consumer commissions "
    "at the district, state and national levels, each with its own limit on the value of "
    "claims it can hear, and allows complaints to be filed online.",
    "Please summarise the following paragraph for me in simple words: The Right to Information "
    "Act requires every public authority to appoint a Public Information Officer, who must "
    "reply to a request within thirty days.",
    "You are a helpful legal assistant. Please answer the following question in simple "
    "language, citing the relevant section: what is the time limit to file a consumer "
    "complaint after a defective product is delivered?",
    "I was arrested last night after a fight outside a bar. The police took my phone and said "
    "I would be produced before a magistrate tomorrow. Can I get bail, and do we need a lawyer?",
]
# Feedback to the assistant, frustrated or warm, with or without swearing: not abuse.
FEEDBACK = [
    "You are very helpful, thank you!",
    "you are such a talented writer, thanks for the letter",
    "I think you misunderstood my question about bail",
    "you are wrong, the deadline is 30 days",
    "Are you sure? My lawyer said something different.",
    "you are fucking awesome",
    "you are a damn genius",
    "You are not wrong",
    "you are not making sense",
    "you are not a lawyer so I will ask someone else",
    "Not you again, I wanted a human",
    "You are not helping me at all",
    "you keep giving me the same answer",
    "you did not answer my question about the deposit",
    "you have been a great help with my RTI request",
]


def _benign() -> list[str]:
    texts = list(test_safety_abuse.NOT_ABUSIVE)
    texts += test_safety_injection.BENIGN + test_safety_injection_families.BENIGN
    texts += test_safety_roleplay_languages.BENIGN
    texts += test_safety_tuning.LOOK_ALIKES + test_safety_tuning.NOT_INSULTS
    texts += test_safety_greeting.QUESTIONS
    texts += [text for text, route, _ in test_safety_classify.CASES if route == "question"]
    return list(dict.fromkeys(t if isinstance(t, str) else t[0] for t in texts))


@lru_cache(maxsize=1)
def service_rules() -> SafetyRules:
    rules = load_safety_rules()
    assert rules.insult_model is not None and rules.injection_model is not None
    return rules.with_toxicity_scorer(toxicity_scorer())


# a blessing or a thanks before a report does not aim the report at the reader (the insult
# model, trained on online comments, rejected the first before round 18)
BLESSED_REPORTS = [
    "bless you. my neighbour keeps abusing my old mother, can we do something",
    "god bless you. my brother-in-law keeps abusing my sister, what can we do",
]


@pytest.mark.parametrize(
    "text",
    test_safety_victim_reports.VICTIMS
    + test_safety_second_look_questions.QUESTIONS
    + BLESSED_REPORTS,
)
def test_victims_and_new_problems_are_answered_with_every_model_on(text: str) -> None:
    """Neither rejected nor greeted: a victim quoting abuse, a thanks and a new problem."""
    assert classify_message(text, service_rules()).query_type == "question"


@pytest.mark.parametrize("text", _benign() + LONG_REQUESTS + FEEDBACK)
def test_hard_negatives_stay_questions(text: str) -> None:
    decided = classify_message(text, service_rules())
    assert decided.query_type != "abusive", decided.reasons


MODEL_ONLY = [
    ("you have the charm of a wet sock", "abuse.model"),  # no rule reads it: the model decides
    ("you really should crawl back under whatever rock you came from", "abuse.model"),
]


@pytest.mark.parametrize(("text", "reason"), MODEL_ONLY)
def test_the_models_reject_what_the_rules_leave_open(text: str, reason: str) -> None:
    without = classify_message(text, load_safety_rules(models=False))
    assert without.query_type == "question"
    decided = classify_message(text, service_rules())
    assert decided.query_type == "abusive"
    assert decided.reasons[0].split(":")[0] == reason


def _attacks() -> list[str]:
    tables = [
        test_safety_abuse.ABUSIVE,
        test_safety_injection.ATTACKS,
        test_safety_injection_families.ATTACKS,
        test_safety_roleplay_languages.ATTACKS,
        test_safety_tuning.INJECTIONS,
        test_safety_tuning.INSULTS,
    ]
    return list(dict.fromkeys(row if isinstance(row, str) else row[0] for t in tables for row in t))


@pytest.mark.parametrize("text", _attacks())
def test_the_rules_attacks_stay_rejected_with_the_models_on(text: str) -> None:
    assert classify_message(text, service_rules()).query_type == "abusive"


# round 20: a compliment or a guess about the assistant is spared ("you are cute", "you must be
# very busy today"), but never hides an insult beside it
@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("you are cute 😄", "greeting"),
        ("you must be very busy today", "greeting"),
        ("you must be very stupid", "abusive"),
        ("you are cute but useless", "abusive"),
        ("you are a cute little moron", "abusive"),
        ("you must be tired of being so useless", "abusive"),  # the guess ends the clause
        # round 24: a blessing is no insult (the insult model: 0.61), nor praise that names
        # the assistant (0.69)
        ("God bless you and your whole team", "greeting"),
        ("you're the best bot ever ❤️", "question"),  # no longer refused; not small talk yet
        ("god bless you, you stupid idiot", "abusive"),
        ("you are the best idiot ever", "abusive"),
    ],
)
def test_compliments_are_spared_and_insults_beside_them_are_not(text: str, route: str) -> None:
    assert classify_message(text, service_rules()).query_type == route


# round 20: the writer going mad with worry speaks of herself; asking whether the reader has
# gone mad does not
@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("uff main pagal ho jaungi", "question"),
        ("pagal ho jaungi main is sab se, notice ka kya karu", "question"),
        ("pagal ho gaya hai kya tu", "abusive"),
        ("main pagal ho jaungi, tu chutiya hai", "abusive"),
    ],
)
def test_going_mad_with_worry_is_no_insult(text: str, route: str) -> None:
    assert classify_message(text, service_rules()).query_type == route
