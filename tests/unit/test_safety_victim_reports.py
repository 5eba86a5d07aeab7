"""Victims who report abuse they received are never turned away: reporting verbs and nouns in
English, Hinglish and Hindi ("keeps calling me", "a text from my ex:", "gaali de raha hai",
"मुझे ... कहता है"), with a question, a request for help, or the writer named as the one spoken
to; abuse aimed at the reader around a report is still refused."""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from tests.unit._safety_rules import shipped_rules

VICTIMS = [
    'My neighbour shouts "you dirty whore" whenever I pass, what can I do?',
    'They wrote "kill yourself you worthless piece of shit" on my wall',  # no "?": to the writer
    "Got an email: 'delete your post or we leak your photos, you slut'. please help",
    'Received an SMS "pay now or you are dead, you bastard" need help urgently',
    "He keeps calling me a worthless whore, please help",
    "I keep getting messages from an unknown number saying you slut I will find you. help me",
    "got a text from my ex: you stupid bitch, nobody will marry you. is this a crime",
    "they abused me saying you dirty dog, go back to your village",
    "my neighbour messaged me 'you bastard, I will kill you' what should i do",
    "he sent me a voice note saying you are a useless whore, can I file a case",
    "I was called a bitch and a slut by my colleague, what now",
    "my boss refers to me as that idiot in every email. is this harassment",
    "sasur kehte hain tu manhoos hai, please help",
    "padosi gaali de raha hai harami kamine bol ke",
    "usne mujhe kutti bola, kya karun",
    "वह मुझे कुतिया कहता है, क्या करूँ",
    "पड़ोसी मुझे गाली देता है हरामी बोलता है",
    # an apostrophe inside a single-quoted insult does not end the quote
    "My in-laws say 'you brought nothing, you're a beggar's daughter' and keep demanding money. "
    "Is this dowry harassment?",
    "Husband's exact words: 'I'll burn you alive if you go to your parents'. Is that a 498A case?",
]

STILL_ABUSE = [
    "you idiot, my husband called me a bitch, what do i do",
    "fuck you, my lawyer said you would help. what can I do",
    "as I said, you are an idiot. please help",
    "just saying, you are useless, help",
    "you are a stupid bot, what should i do",
    "tu pagal hai, kya karun",
    "तू कमीना है, उसने मुझे कहा",
]


@pytest.mark.parametrize("text", VICTIMS)
def test_victims_are_heard(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "question"


@pytest.mark.parametrize("text", STILL_ABUSE)
def test_abuse_around_a_report_is_refused(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "abusive"
