"""Small talk, thanks and closings in English, Hinglish and Hindi are greetings (phrases and the
greeting `patterns`); a greeting with a question, or a question built from the same words, stays
a question; identity questions about the assistant are small talk, questions about its
qualifications or about the case are not."""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from tests.unit._safety_rules import shipped_rules

GREETINGS = [
    "what are you up to?",
    "who made you?",
    "how old are you?",
    "is anybody here?",
    "howdy partner",
    "thanks so much for your help, you have been great",
    "thank you, that was very helpful and clear",
    "how's your week going so far?", "how you been?", "how are things with you?",
    "how was your weekend?", "what's going on?", "what's new with you?", "hope you're doing fine",
    "i hope all is good", "it was nice talking to you", "nice meeting you", "talk to you soon",
    "see you tomorrow", "gotta go, bye", "have a wonderful evening", "enjoy the rest of your day",
    "thanks a million", "thank u so much!!", "much obliged", "i appreciate your help",
    "thank you for your time and help", "that was very informative, thanks", "got it, thanks",
    "perfect, thank you!", "that's all for now, thanks", "no more questions, thank you",
    "you are the best, thanks", "thank you, you are very kind", "who are you?",
    "what's your name?", "are you a bot or a real person?", "who am i talking to?",
    "aap kaun ho?", "koi hai?", "phir milte hain", "aapne bahut madad ki, shukriya",
    "aapse baat karke accha laga", "आप कौन हैं?", "कोई है?", "फिर मिलते हैं",
    "धन्यवाद, अब समझ आ गया", "आपने बहुत मदद की", "बहुत अच्छा लगा आपसे बात करके",
    # round 20: compliments and guesses about the assistant, a being it is compared with
    "you are cute 😄", "you must be so tired today", "are you an ai like chatgpt?",
    "you reply so fast, how?",
]  # fmt: skip

# near misses: the same openers with content, and questions about the assistant's work
QUESTIONS = [
    "who made you the owner of my land?",
    "how old are you supposed to be to marry in India?",
    "can I talk to a lawyer for free?",
    "what are you doing with my personal data?",
    "Are you sentient?",
    "How is your health?", "how are you going to help me with my case?", "how is my case going?",
    "what is new in the law?", "what is up with my refund?", "who are you to decide?",
    "are you a lawyer?", "where are you?", "what can you do about my case?",
    "hope you can help me", "i have to go to court tomorrow", "do i have to go?",
    "nice to meet you, my landlord is evicting me", "it helped, but what about the notice?",
    "talk to you later about the divorce", "see you in court", "good morning, my husband beats me",
    "is anyone here a lawyer?", "how is it going with the case?", "thanks, but what about rent?",
    "tell me about yourself and your fees", "kya aap vakil ho?", "koi hai jo meri madad kare?",
    "samajh gaya, par ab kya karun?", "आप कौन हैं जो मुझे सलाह दे रहे हैं?",
    "कोई है जो मदद करे?",
    "koi advocate hai?", "koi advocate hain kya",  # round 29: asking for one (the head greeted)
    "you must be tired of cases like mine, my husband left me", "you are cute but you did not help",
]  # fmt: skip


@pytest.mark.parametrize("text", GREETINGS)
def test_small_talk_is_a_greeting(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "greeting"


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_is_never_greeted(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "question"


def test_praise_alone_spared_by_the_abuse_rules_may_be_a_greeting() -> None:
    decided = classify_message("you're a lifesaver, thanks", shipped_rules())
    assert decided.query_type == "greeting" and decided.reasons == ("greeting",)


def test_reported_speech_is_never_a_greeting() -> None:
    decided = classify_message("thanks, he called me a bitch again, what now?", shipped_rules())
    assert decided.query_type == "question"
