"""Greetings: only a message that is nothing but a greeting or small talk goes to `greet`."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.safety.greeting import detect_greeting
from tests.unit._safety_rules import shipped_rules

GREETINGS = [
    "hi",
    "Hi",
    "hello",
    "hey",
    "good morning!",
    "Good evening :)",
    "how are you?",
    "how are you doing today?",
    "what's up?",
    "whats up",
    "sup",
    "hello there :)",
    "Hi there!",
    "Hey, how's it going?",
    "Hiiii",
    "heyyy",
    "gooood morning",
    "hi bot",
    "Hello Warden!",
    "hey everyone",
    "yo",
    "Good morning, how are you?",
    "Hi! How are you? 😊",
    "hello again",
    "are you there?",
    "Thanks!",
    "thank you so much",
    "ok thanks",
    "thanks for your help",
    "bye",
    "Bonjour",
    "salut, ça va ?",
    "Hallo, wie geht's?",
    "Guten Morgen",
    "Hola, ¿qué tal?",
    "Buenos días",
    "Ciao, come stai?",
    "Namaste",
    # round 16: pauses, a joke, the assistant's life, praise of the answer, a formal close
    "brb",
    "one sec",
    "tell me a joke pls",
    "can you get angry?",
    "what's your fav food?",
    "are you made in India?",
    # round 28: more of the assistant's tastes
    "who's your favourite actor",
    "what kind of music do you listen to",
    "have you watched any good movies lately?",
    "tell me something about yourself",
    "do you even eat food?",
    "exactly what I was looking for",
    "Many thanks for your prompt reply. I shall proceed accordingly.",
    # round 18: greetings spelt long or short, "anyone there", exclamations, a remark on the
    # question, a question back, the assistant's tastes; in Hinglish and Hindi too
    "heyo",
    "yoo!",
    "helllow!!!???",
    "hey!!! whats up man??",
    "anybody alive?",
    "who's there?",
    "I'm back",
    "can you see my messages?",
    "whoa",
    "yikes",
    "that's a tough question.",
    "good question",
    "I love this question!",
    "what about you?",
    "and you?",
    "what is your favorite type of movie?",
    "arre wah",
    "main wapas aa gayi",
    "accha sawal hai",
    "वाह",
    "मैं वापस आ गया",
    "और आप?",
    # chat shorthand (`shorthand` in the English greeting block)
    "thanks for ur help",
    "thnx a lot",
    "gud nite",
    "ok tnx bye",
    "shukriya, thx a lot",
    "aap khana kha liye?",
    # round 30: "hows" without its apostrophe, where the reader is, "my guy"
    "hows ur day going?",
    "hello, how are things on your end?",
    "hows it going over there",
    "whats up my guy",
]

QUESTIONS = [
    "Hi, what is the notice period for eviction?",
    "hey, quick question",
    "hello, can you help me?",
    "Hi! Quick question: can I withhold rent?",
    "Good morning, what are the court's opening hours?",
    "How are you supposed to file a complaint?",
    "What's up with the new deposit law?",
    "Hello, I need help with my visa",
    "Hi there, my name is Asha and I have a question about bail",
    "Thanks for the info, but what about appeals?",
    "Hey you there, is the office open today?",
    "hi 123",
    "hello?? what is bail",
    "morning, my landlord kept my deposit",
    "Hi, I'm Asha",
    "good",
    "ok, bail?",  # "ok" alone is small talk since round 6; with a case word it asks
    "how",
    "what is up with bail",
    "Is anyone there to help with my eviction?",
    "Hola, ¿cómo está el proceso de desalojo?",
    "hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi",  # longer than greeting_max_words (14)
    "",
    "   ",
    "?",
    # round 16 (a review): a pause or a taste before a real question
    "wait, is this free?",
    "hold on, can he take my kids?",
    "what's your fav food? mine is biryani but my landlord cut my gas",
    "who's your favourite actor? mine used to be my husband, now he beats me",
    "tell me something about yourself, are you a lawyer who can take my bail case",
    "do you even sleep? i can't, my landlord threatens me every night",
    "exactly what I was looking for, but what about my son's case?",
    "do you have a name of a good lawyer in pune?",
    # round 18: each of these may answer the assistant, or asks something after the remark
    "yes",
    "no",
    "i don't know",
    "haan",
    "नहीं",
    "good question, what is bail?",
    "that's a tough question, my husband took my jewellery",
    "I'm back, the police still did not file my FIR",
    "omg my landlord locked me out",
    "and you? can you help my son get bail?",
    "what is your favourite section of the IPC for theft?",
    "wah, ab mera case kab sunenge?",
    # round 18 (a review): an exclamation or "i am back" is no greeting for a closing remark to
    # lean on; "aap batao" asks for advice, "wapas aa gaya" may be "he is back"
    "omg i will take the kids and leave",
    "no way i will go back to my in laws",
    "wah main dahej ka case karungi",
    "aap batao, main kal court jaungi",
    "मैं वापस आ गई, कल थाने जाऊँगी",
    "wapas aa gaya hai",
    "ab aap bataiye",
    "आप बताइए सर",
    "oh my god please",
    "no way",
    "can you read this",
    "random question",
    # shorthand read as words is still content; words with a second life are not shorthand
    "thx, ur bail is?",
    "plz help me with my FIR",
    "thx 4 the 498a info",
    "u help me plz",
    "thx, im ready to go back to him tonight",
    "tx again?",
    # whether the assistant is a lawyer is answered as a question (round 29 review)
    "are you a lawyer? my husband beat me",
    "koi vakil hain kya",
    "lawyer or advocate?",
    "hello, legal aid please",
    "legal aid",
    "hows my case going",
    "how is the fir going on your end",
    "hows the hearing going over there?",
]


@pytest.mark.parametrize("text", GREETINGS, ids=GREETINGS)
def test_greeting(text: str) -> None:
    assert detect_greeting(text, shipped_rules()).reasons == ("greeting",)


@pytest.mark.parametrize("text", QUESTIONS, ids=QUESTIONS)
def test_not_a_greeting(text: str) -> None:
    assert not detect_greeting(text, shipped_rules()).flagged


def test_length_thresholds_come_from_the_rules() -> None:
    text = "hello hello hello hello"
    assert detect_greeting(text, shipped_rules()).flagged
    assert not detect_greeting(text, replace(shipped_rules(), greeting_max_words=3)).flagged
    assert not detect_greeting(text, replace(shipped_rules(), greeting_max_chars=10)).flagged


def test_no_greeting_vocabulary_means_no_greetings() -> None:
    assert not detect_greeting("hi", replace(shipped_rules(), greeting={})).flagged


@pytest.mark.parametrize("text", GREETINGS + QUESTIONS)
def test_the_first_word_gate_never_turns_away_a_match(text: str) -> None:
    compiled = shipped_rules().compiled
    words = compiled.prepare(text).words
    for fold, whole in compiled.greeting_full + compiled.greeting_closing:
        folded = fold(words)
        assert whole.fullmatch(folded) is (whole.regex.fullmatch(folded) is not None), folded
