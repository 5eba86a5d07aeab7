"""Festival wishes and emoji-only messages are greetings; a festival in a real question is not
(the shipped rules, no models)."""

from __future__ import annotations

import pytest

from tests.unit._safety_rules import assert_routed

GREETINGS = [
    "happy diwali to you and your family",
    "Eid Mubarak!",
    "Eid Mubarak to you and your team!",
    "gurpurab di lakh lakh vadhaiyan",
    "Merry Christmas bot 🎄",
    "wishing you a very happy diwali",
    "happy new year sir",
    "aapko diwali ki hardik shubhkamnaye",
    "holi ki badhai ho",
    "happy lohri ji",
    "दिवाली की शुभकामनाएँ 🪔",
    "छठ पूजा की बधाई हो",
    "आपको और आपके परिवार को होली की हार्दिक शुभकामनाएं",
    "🙏",
    "🙏🙏🙏",
    "👍🏽",
    "😊🙏",
    "❤️",
]

QUESTIONS = [
    "is diwali a public holiday?",
    "happy diwali, can my landlord evict me during diwali?",
    "my boss did not give diwali bonus",
    "eid ki chutti nahi di company ne",
    "holi ke din padosi ne rang phenka aur gaali di, kya karu",
    "दिवाली पर पटाखे जलाने का नियम क्या है",
    "christmas party me harassment hua",
    "😡",
    "🙏 ?",
    "🤬🤬",
]


@pytest.mark.parametrize("text", GREETINGS)
def test_festival_wishes_and_emoji_are_greetings(text: str) -> None:
    assert_routed(text, "greeting", "greeting")


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_festival_in_a_question_is_a_question(text: str) -> None:
    assert_routed(text, "question")
