"""Insults aimed at the reader in stretched, leet or masked spellings, and the common English
insults that round one missed ("deaf", "nincompoop", "waste of time", "shit bot"); the same words
used literally ("my father is deaf", "a waste of time at the police station") stay questions."""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.normalize import words_of
from tests.unit._safety_rules import assert_routed, shipped_rules

ABUSIVE = [
    ("idiotttt", "abuse.en.bare_insult"),
    ("you are sooo stupiddd", "abuse.en.insult_second_person"),
    ("stup1d bot", "abuse.en.insult_assistant_noun"),
    ("you id10t", "abuse.en.insult_vocative"),
    ("f*ck you", "abuse.en.phrase"),
    ("fcuk you", "abuse.en.phrase"),
    ("you b!tch", "abuse.en.insult_vocative"),
    ("bi+ch", "abuse.en.bare_insult"),
    ("@sshole", "abuse.en.bare_insult"),
    ("you a$$hole", "abuse.en.insult_vocative"),
    ("dumb a$$ bot", "abuse.en.insult_assistant_noun"),
    ("sh!t bot", "abuse.en.junk_assistant"),
    ("Are you deaf or just dumb?", "abuse.en.insult_question"),
    ("are you blind or what", "abuse.en.insult_question"),
    ("you are deaf", "abuse.en.negative_second_person"),
    ("you nincompoop", "abuse.en.insult_vocative"),
    ("talking to you is a waste of time", "abuse.en.waste_of_time"),
    ("this bot is a total waste of my time", "abuse.en.waste_of_time"),
    ("kutteee", "abuse.hinglish.bare_insult"),
    ("tu paaagal hai", "abuse.hinglish.insult_second_person"),
    ("kambakht bot", "abuse.hinglish.insult_assistant_noun"),
    ("tu manhoos hai", "abuse.hinglish.insult_second_person"),
    ("तू कमबख्त है", "abuse.hi.insult_second_person"),
    ("तुम बेहूदा हो", "abuse.hi.insult_second_person"),
    ("क्या बकवास जवाब है", "abuse.hi.junk_answer"),
]

QUESTIONS = [
    "My father is deaf, can he be a witness with an interpreter?",
    "Are deaf people entitled to a disability pension?",
    "I made a stupid mistake and signed a blank cheque, what now?",
    "Going to the police station was a waste of time, where else can I complain?",
    "My neighbour's dog bit my son, can I claim compensation?",
    "Someone stole my donkey, how do I file a complaint?",
    "I paid US$ 500 as advance, can I get it back?",
    "My e-mail is asha@gmail.com, is that enough for the notice?",
    "what does a+b mean in clause 4?",
    "गाँव के लोग हमें नीच जाति का कहते हैं, क्या यह अपराध है?",
]


@pytest.mark.parametrize(("text", "reason"), ABUSIVE)
def test_insults_at_the_reader_are_refused(text: str, reason: str) -> None:
    assert_routed(text, "abusive", reason)


@pytest.mark.parametrize("text", QUESTIONS)
def test_literal_words_stay_questions(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "question"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("bi+ch", "bitch"),
        ("a$$hole", "asshole"),
        ("@sshole", "asshole"),
        ("dumb a$$", "dumb ass"),
        ("a+b", "atb"),  # between letters only; harmless in a question
        ("c++ and $5", "c and 5"),
    ],
)
def test_leet_symbols(text: str, words: str) -> None:
    assert words_of(text) == words
