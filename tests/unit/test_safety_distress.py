"""Distress is never a greeting: self-harm or a harm done, however thankfully it is framed.

Each row is greeted by one of the three greeting paths when its distress is taken out (the
greeting rule's closing remarks, the thanks closure, or a small-talk head that is sure); with
it, the route is a question that names the distress for audits.
"""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from tests.unit._safety_rules import shipped_rules
from tests.unit.test_safety_message_models import route, with_heads

# (message, the same message without its distress, reason)
DISTRESS = [
    ("shukriya, warna main mar jaungi", "shukriya, main kal jaungi", "question.crisis"),
    ("thank you didi, ab main zeher kha lungi", "thank you didi, ab main khana kha lungi",
     "question.crisis"),
    ("धन्यवाद, अब मैं ज़हर खा लूँगी", "धन्यवाद, अब मैं खाना खा लूँगी", "question.crisis"),
    ("शुक्रिया, वरना मैं मर जाऊँगी", "शुक्रिया, मैं कल जाऊँगी", "question.crisis"),
    # round 20: a plan's clause holds only the words of a plan, so no greeting path takes the
    # harm that follows it in: a question with content, before the distress lists are asked
    ("thank you, I'll send it, my ex leaked my private pictures on facebook",
     "thank you, I'll send it", "question.greeting_with_content"),
    ("thanks, I'll file tomorrow, he pushed me down the stairs again yesterday",
     "thanks, I'll file tomorrow", "question.greeting_with_content"),
    ("thanks, I will contact the DLSA, the magistrate has ordered my eviction",
     "thanks, I will contact the DLSA", "question.greeting_with_content"),
    ("thanks, I will go, I will go to the bridge tonight and end it",
     "thanks, I will go, I will go to the court tomorrow", "question.greeting_with_content"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "calm", "reason"), DISTRESS)
def test_distress_is_a_question_where_its_absence_is_a_greeting(
    text: str, calm: str, reason: str
) -> None:
    assert route(calm, with_heads())[0] == "greeting"  # the frame alone is greeted
    decided, reasons = route(text, with_heads())
    assert (decided, reasons) == ("question", (reason,))


@pytest.mark.parametrize(
    ("keyed", "text"),
    [
        ("shukriya", "shukriya, ab main khud ko khatam kar dungi"),
        ("धन्यवाद", "धन्यवाद, मैं खुद को खत्म कर दूँगी"),
        ("thanks", "thanks for everything, there is no reason to live anymore"),
        ("thanks", "thanks, take care, tonight I end my life"),
        ("thank", "i feel like a burden, thank you"),  # round 17: worthlessness
        ("shukriya", "shukriya, main apni jaan le lungi"),  # round 18 (a review)
        ("धन्यवाद", "धन्यवाद, मैं अपनी जान ले लूँगी"),
        ("shukriya", "shukriya, kal main sab khatam kar dungi"),
        ("thanks", "thanks, tonight i decide if life is worth it"),
        # round 21 (a review): a last word, not being here tomorrow, hiding
        ("yaad", "mujhe yaad rakhoge? shayad kal main na rahoon"),
        ("yaad", "mujhe yaad rakhoge na, ye meri aakhri baat hai"),
        ("sorry", "sorry for the typos, i am hiding in the bathroom"),
        ("sorry", "sorry typo ke liye, chhup ke likh rahi hoon"),
    ],
)
def test_a_sure_small_talk_head_does_not_greet_a_crisis(keyed: str, text: str) -> None:
    assert route(text, with_heads(social=keyed)) == ("question", ("question.crisis",))


@pytest.mark.parametrize(
    "text",
    [
        "thank you so much",
        "good night, take care",
        "shukriya, kal thane jaungi",
        "thanks, I will go to the police station tomorrow",
        "i was so scared but now i know what to do, thank you",
        "धन्यवाद, फिर मिलेंगे",
    ],
)
def test_greetings_without_distress_stay_greetings(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "greeting"


# round 16 (a review): goodbyes for ever, no strength left, danger now. (word the small-talk
# head is sure of, message, the same without its distress)
DISTRESS_TO_A_SURE_HEAD = [
    ("thanks", "thanks for everything, goodbye forever", "thanks for everything, goodbye"),
    ("thank", "thank you, bas bahut ho gaya ab", "thank you, bas ab"),
    ("धन्यवाद", "धन्यवाद दीदी, अब हमेशा के लिए चलती हूँ", "धन्यवाद दीदी, अब चलती हूँ"),
    ("thanks", "thanks, bye, he is at the door again", "thanks, bye, see you again"),
    ("shukriya", "shukriya didi, bachao, wo aa gaya", "shukriya didi, aap bahut acchi ho"),
    ("thank", "thank you so much, i am scared", "thank you so much, i am happy"),
    # round 19: no roof tonight, shut in, shaking, the river
    (
        "thanks",
        "thanks, I will think about it, I have nowhere to stay tonight",
        "thanks, I will think about it",
    ),
    (
        "thank",
        "thank you, this service is a blessing, I am sleeping at the bus stand with my daughter",
        "thank you, this service is a blessing",
    ),
    (
        "thank",
        "thank you, i will think about this, my in laws have shut me in the room since morning",
        "thank you, i will think about this",
    ),
    (
        "thanks",
        "thanks, i have noted everything, I am shaking and cannot sleep",
        "thanks, i have noted everything",
    ),
    (
        "thanks",
        "thanks, I will decide tonight between going back to him and going to the river",
        "thanks, I will decide tonight",
    ),
    # round 20 (a review): "thanks, will ..." reads as a closing to the small-talk head, whatever
    # the writer will do; it greets only a plan of acting on the advice (a plan's closed words,
    # pipelines/safety/thanks_plans.untold_plan)
    ("thanks", "thanks, will use the pesticide tonight", "thanks, will send the notice tonight"),
    ("thank", "thank you, will pay the ransom by tonight", "thank you, will submit the court fee"),
    (
        "thank",
        "thank you, will sleep on the road tonight with my kids",
        "thank you, will go to the dlsa",
    ),
    (
        "thanks",
        "thanks for everything, will go far away from this world soon",
        "thanks, will go soon",
    ),
    (
        "thank",
        "thank you, will meet the guy from instagram alone at the hotel",
        "thank you, will meet the lawyer",
    ),
    # round 24 (a review): a plan that is open to the rule (any words, none of the risks) is no
    # veto of the head; only a plan of the closed words is
    ("thanks", "thanks, will go to the canal tonight after the kids sleep", "thanks, will go soon"),
    ("thanks", "thanks, will get 50k ready for the officer", "thanks, will go soon"),
    (
        "thanks",
        "thanks, will keep the matter inside the family, izzat matters",
        "thanks, will go soon",
    ),
    # round 25 (a review): a step the writer took is read as the plan is
    ("thanks", "thanks, went up to the overbridge", "thanks, went to the dlsa office"),
    ("thanks", "thanks, visited the old well tonight", "thanks, visited the police station"),
    ("thanks", "thanks, we met the sho at his farmhouse", "thanks, we met the sho at the office"),
    # ... and a plan of the closed words that names a risk is no closing to the head either
    ("thanks", "thanks, will go to the lodge tonight", "thanks, will go to the office tonight"),
    # ... and going without food or pay is a harm, however cheerful (a review of remarks)
    ("tonight", "kids hungry again tonight", "kids asleep early tonight"),
    ("diwali", "working on diwali again, no pay", "working on the diwali lights again"),
    ("today", "done with everything today", "done with the shopping today"),
]


@pytest.mark.parametrize(("keyed", "text", "calm"), DISTRESS_TO_A_SURE_HEAD)
def test_distress_is_not_small_talk_however_sure_the_head(keyed: str, text: str, calm: str) -> None:
    rules = with_heads(social=keyed)
    assert route(calm, rules)[0] == "greeting"
    assert route(text, rules)[0] == "question"
