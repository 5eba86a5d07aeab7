"""Bad news told beside a thanks that reads like a win (pipelines/safety/thanks_news.py): the
small-talk head must not greet it."""

from __future__ import annotations

import pytest

from pipelines.safety.thanks_news import bad_news
from tests.unit._safety_rules import shipped_rules
from tests.unit.test_safety_message_models import route, with_heads


def _bad(text: str) -> bool:
    rules = shipped_rules()
    return bad_news(rules.compiled.prepare(text).clauses, rules.compiled.thanks_news)


@pytest.mark.parametrize(
    "text",
    [
        "ty, my caste certificate got issued, with the wrong caste on it",
        "thanks, the job was approved and i have paid the recruiter on telegram",
        "thanks, my wages are credited to the contractor's account",
        "thanks, the land registration is done in my brother's name",
        "thank you, the court granted my husband bail",
        "thanks, he was acquitted yesterday",
        "thank you, case khatam, wo bari ho gaya kal",
        "shukriya, papa ki pension chacha ke account me aa gaya",
        "shukriya, bijli connection 5000 dekar chalu ho gaya",
        "धन्यवाद, बच्चों की कस्टडी उनके पिता को मिल गई",
        "धन्यवाद, जिंदा पिताजी का मृत्यु प्रमाण पत्र जारी हो गया",
    ],
)
def test_a_win_beside_bad_news_is_bad_news(text: str) -> None:
    assert _bad(text)


@pytest.mark.parametrize(
    "text",
    [
        "thank u, the airline refunded my cancelled ticket finally",
        "thank you, got my name corrected on the ration card",
        "the gram panchayat issued the residence certificate without any bribe, thank you",
        "shukriya, builder ne flat ka possession de diya",
        "धन्यवाद, एयरलाइन ने टिकट का पैसा लौटा दिया",
        # no verb of things won at all, or a weak one far from the writer's own
        "thank you, the warrant came today",
        "my brother in law listened to me and then started coming into my room, thanks",
    ],
)
def test_a_win_alone_or_no_win_is_not_bad_news(text: str) -> None:
    assert not _bad(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("thank you, case khatam, wo bari ho gaya kal", "khatam"),
        ("ty, my caste certificate got issued, with the wrong caste on it", "caste"),
        ("शुक्रिया, खाता चालू हो गया, अब मैं ही आरोपी हूँ", "चालू"),
    ],
)
def test_bad_news_beside_a_win_vetoes_the_small_talk_head(text: str, word: str) -> None:
    assert route(text, with_heads(social=word))[0] == "question"
    # the same thanks without the bad news: the head, keyed on the same word, greets it
    clauses = shipped_rules().compiled.prepare(text).clauses
    assert route(f"{clauses[0]}, {clauses[1]}", with_heads(social=word))[0] == "greeting"


@pytest.mark.parametrize(
    "text",
    [  # a review's probes against greeting good news (round 28): all stay questions
        "thanks, the cops handed back my complaint letter",
        "धन्यवाद, बैंक ने मेरा चैक लौटा दिया",
        "shukriya, police ne meri complain wapas kar di",
        "thanks, the refund got credited after i scanned the qr code",
        "thank you, my salary got credited and i am sending it to the instagram friend in london",
        "thanks, the court granted bail, my husband returned home",
    ],
)
def test_good_news_that_hides_a_risk_stays_a_question(text: str) -> None:
    assert route(text, with_heads())[0] == "question"
