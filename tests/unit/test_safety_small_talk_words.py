"""One-word reactions, "still awake?", "just passing time", short thanks and relief in English,
Hinglish and Hindi are small talk; the same words around a problem are a question (the shipped
rules, no models; own wording, not evaluation texts)."""

from __future__ import annotations

import pytest

from tests.unit._safety_rules import assert_routed

GREETINGS = [
    "nice",
    "great!",
    "awesome 😂",
    "helpful, ty bot",
    "u awake?",
    "you still there?",
    "tq",
    "bless u",
    "honestly, thank you",
    "can we just chat for a bit",
    "wow you reply fast",
    "😂😂",
    "oye",
    "jaag rahe ho kya?",
    "kuch nahi bas aise hi",
    "time pass kar raha hu",
    "mere dost banoge?",
    "arey wah",
    "bahut relief mila, shukriya",
    "sach me bahut madad hui",
    "thenku ji",
    "aapka ehsaan rahega",
    "जाग रहे हो क्या",
    "कुछ नहीं, बस ऐसे ही",
    "अरे वाह",
    "खाना खा लिया?",
    "सच में बहुत मदद मिली",
    "थैंक्यू",
    "जुग जुग जियो",
    # round 24: a fact asked for, the assistant's meals, hobbies and sign, a match seen, a slip
    "tell me a random fact",
    "what did u eat for dinner?",
    "whats ur star sign",
    "have you seen the world cup final?",
    "oops sorry wrong chat pls ignore",
    "nothing much, just chilling",
    "what are you up to now?",  # a question to the assistant, not "ok so?"
]

QUESTIONS = [
    "nice, but my landlord still keeps the deposit",
    "great, and what if he does not pay?",
    "u awake? my husband is beating me",
    "kuch nahi hua police se, ab kya karu",
    "time pass kar raha hai court, 5 saal ho gaye, kya karu",
    "khana kha liya? mera pati mujhe khana nahi deta",
    "oye meri FIR kab likhi jayegi",
    "bahut relief mila lekin ab wo phir se dhamki de raha hai",
    "कुछ नहीं हुआ थाने में, अब क्या करूँ",
    "अरे वाह, तो क्या मैं जमानत ले सकता हूँ?",
    "tell me a random fact about bail",
    "have you seen the FIR I sent?",
    "sorry wrong message, my husband took my phone",
    "ok so?",
    "and now?",
]


@pytest.mark.parametrize("text", GREETINGS)
def test_small_talk_words_are_a_greeting(text: str) -> None:
    assert_routed(text, "greeting")


@pytest.mark.parametrize("text", QUESTIONS)
def test_the_same_words_around_a_problem_are_a_question(text: str) -> None:
    assert_routed(text, "question")
