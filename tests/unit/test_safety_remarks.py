"""A remark about the writer's day, made of everyday words, is small talk; one that asks,
thanks, plans, speaks to the assistant or names a problem is not (pipelines/safety/remarks.py)."""

from __future__ import annotations

import pytest

from pipelines.safety.remarks import chitchat_remark
from tests.unit._safety_rules import shipped_rules
from tests.unit.test_safety_message_models import route, with_heads

REMARKS = [
    "winter in shimla is beautiful, snow everywhere ❄️",
    "just cooked maggi at 2am, college life 😂",
    "mumbai rains are back, local trains full as usual",
    "so tired after office today, just lying on the bed scrolling",
    "very hot today, 45 degrees in Nagpur 🥵",
    "bursting crackers with my cousins tonight, diwali vibes",
    "rcb lost again lol",
    "dhoni or kohli, who is better?",  # a choice between two things named may ask
    "idli or dosa? choose one",
]

NOT_REMARKS = [
    "are firecrackers allowed on diwali in delhi this year",  # asks without a "?"
    "is it hot in delhi?",  # a "?"
    "why is the metro so slow today",  # a question word
    "thanks, the biryani was great",  # a thanks: thanks_closure reads it
    "will go to goa with the agent tomorrow",  # a plan
    "you are so cute, like a street dog",  # to the assistant: the message models read it
    "so tired, my husband beat me again after dinner",  # a harm
    "landlord cut the electricity in this heat",  # a legal matter
    "no food since yesterday, so hungry",  # a risk
    "stuck at the bus stand tonight with my kids, so cold",  # risks
    "so tired of everything, want to end it tonight",  # a crisis
    "go back or stay, which is better?",  # a choice, but nothing of a remark's
    "court or lok adalat, which is better?",  # a legal matter
    "my husband or my in laws, who is worse?",  # risks
    "call me on 9415012345 after lunch",  # a long number
    # a review: going without, a home lost, out in the cold, last words
    "no dinner again tonight",
    "skipped lunch and dinner again",
    "out in the cold with the kids tonight",
    "too tired to go on",
    "festival season, still no wages",
    "metro fare is all i have",
    "rains again, our jhuggi demolished",
    "tea and biscuits for 3 days now",
    "beautiful sunset, last one for me",
    "this fucking heat",  # profanity
    "hot",  # too short
]


@pytest.mark.parametrize("text", REMARKS)
def test_a_remark_about_the_day_is_small_talk(text: str) -> None:
    rules = shipped_rules()
    assert chitchat_remark(text, rules.compiled.prepare(text), rules)
    assert route(text, with_heads()) == ("greeting", ("greeting.remark",))


@pytest.mark.parametrize("text", NOT_REMARKS)
def test_a_remark_that_asks_or_names_a_problem_is_not(text: str) -> None:
    rules = shipped_rules()
    assert not chitchat_remark(text, rules.compiled.prepare(text), rules)
