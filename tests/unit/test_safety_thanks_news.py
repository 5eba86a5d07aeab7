"""Good news told beside a thanks (pipelines/safety/thanks_news.py): the writer's matter came out
in their favour and nothing is left open; bad news that reads like a win stays a question."""

from __future__ import annotations

import pytest

from pipelines.safety.thanks_news import bad_news, good_news
from tests.unit._safety_rules import shipped_rules
from tests.unit.test_safety_message_models import route, with_heads

CLOSURE = ("greeting.thanks_closure",)


def _clause(text: str) -> str:
    (clause,) = shipped_rules().compiled.prepare(text).clauses
    return clause


@pytest.mark.parametrize(
    "clause",
    [
        "the airline refunded my cancelled ticket finally",
        "the court gave me custody of my daughter today",
        "my caste certificate got issued today",
        "got the compensation from the railway claims tribunal",
        "my widow pension started this month",
        "the builder refunded our booking amount with interest",
        "the gram panchayat issued the residence certificate without any bribe",
        "the consumer forum ruled in my favour",
        "gaadi thane se chhut gayi",
        "builder ne flat ka possession de diya",
        "mera naam sahi ho gaya ration card mein",
        "scholarship ka paisa account me aa gya",
        "zamanat mil gayi papa ko",
        "एयरलाइन ने टिकट का पैसा लौटा दिया",
        "राशन कार्ड में मेरा नाम सही हो गया",
        "पीएफ का पैसा खाते में आ गया",
    ],
)
def test_a_thing_won_is_good_news(clause: str) -> None:
    assert good_news(_clause(clause), shipped_rules().compiled.thanks_news)


@pytest.mark.parametrize(
    "clause",
    [
        # no verb of things won, or a weak one said of no one's own or far from it
        "the warrant came today",
        "he got the house",
        "my brother in law listened to me and then started coming into my room at night",
        # left open: a contrast, a part, a deadline, a future
        "the landlord returned the deposit but kept 5000",
        "the company refunded half the amount",
        "the police gave me 24 hours to pay",
        "the bank restored my account and will charge a fee",
        # bad news that reads like a win, the writer giving in, a scam, a child
        "my fir was returned by the police",
        "the job was approved and i have paid the recruiter on telegram",
        "the lottery prize got approved",
        "my 13 year old son got a job at the dhaba",
        "the police registered a case in my name",
        "the hospital released my sons body today",
        # gone to someone else
        "my wages are credited to the contractor's account",
        "the land registration is done in my brother's name",
        "papa ki pension chacha ke account me aa gaya",
        "beti ki maut ka muavza damad ko mil gaya",
        # the other side set free, or winning
        "the court granted my husband bail",
        "he was acquitted yesterday",
        "wo jail se chhut gaya",
        "बच्चों की कस्टडी उनके पिता को मिल गई",
        # a paper sent back, another's dispute (the closed grammar reads the writer's own)
        "bank ne meri salary wapas kar di",
        "malik ki fir darj ho gayi",
        "अदालत में बैंक का दावा मंजूर हो गया",
        # a bribe, a paper of a lie
        "bijli connection 5000 dekar chalu ho gaya",
        "जिंदा पिताजी का मृत्यु प्रमाण पत्र जारी हो गया",
    ],
)
def test_news_left_open_or_bad_is_not_good_news(clause: str) -> None:
    assert not good_news(_clause(clause), shipped_rules().compiled.thanks_news)


@pytest.mark.parametrize(
    "text",
    [
        "thank u, the airline refunded my cancelled ticket finally",
        "Thank you so much. The bank closed my loan account and gave me the NOC.",
        "landlord gave back the whole deposit without any cuts 🙂 thanks for the notice draft",
        "thank you, maalik ne teen mahine ki mazdoori de di",
        "thank you, bank ne NOC de di, loan close ho gaya",
        "धन्यवाद, एयरलाइन ने टिकट का पैसा लौटा दिया।",
        "शुक्रिया, ससुराल वालों ने मेरा स्त्रीधन वापस कर दिया।",
    ],
)
def test_a_thanks_with_good_news_closes_the_conversation(text: str) -> None:
    assert route(text, with_heads()) == ("greeting", CLOSURE)  # heads that score low


@pytest.mark.parametrize(
    "text",
    [
        "thanks, the landlord returned the deposit, kept 5000 for painting",
        "thank you, they refunded the money, now they want me to sign a paper",
        "thanks, the court granted my husband bail",
        "thanks, the owner paid my salary to my father for the whole year",
        "thank you, the bank returned the fraud money",  # a harm named: never a greeting
        "Thank you, bank ke kurki notice ki copy mil gayi",
        "Shukriya, hum sab ki mazdoori thekedar ke account me aa gaya",
        "धन्यवाद, 15 साल की बेटी का विवाह प्रमाण पत्र बन गया",
    ],
)
def test_a_thanks_with_bad_or_open_news_stays_a_question(text: str) -> None:
    assert route(text, with_heads())[0] == "question"


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("thank you, case khatam, wo bari ho gaya kal", "khatam"),
        ("ty, my caste certificate got issued, with the wrong caste on it", "caste"),
        ("शुक्रिया, खाता चालू हो गया, अब मैं ही आरोपी हूँ", "चालू"),
    ],
)
def test_bad_news_beside_a_win_vetoes_the_small_talk_head(text: str, word: str) -> None:
    prepared = shipped_rules().compiled.prepare(text)
    assert bad_news(prepared.clauses, shipped_rules().compiled.thanks_news)
    assert route(text, with_heads(social=word))[0] == "question"
    # the same thanks without the bad news: the head, keyed on the same word, greets it
    kept = prepared.clauses[0] + ", " + prepared.clauses[1]
    assert route(kept, with_heads(social=word))[0] == "greeting"
