"""Small-talk, thanks and closing families in English, Hinglish and Hindi, each beside a look-alike
that carries a word of a case and stays a question; and the greeting decided once per text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.greeting import detect_greeting
from tests.unit._safety_rules import assert_routed, shipped_rules

GREETINGS = [
    "cool",
    "lol",
    "okay got it",
    "good to know",
    "you're nice",
    "you're pretty smart",
    "Thanks, I understand now.",
    "thanks, that answers everything",
    "that clears it up, thanks",
    "thank you for being patient with me",
    "Thank you for listening. I was so worried but now I know what to do.",
    "thanks from my mother too",
    "human or bot?",
    "salaam walekum",
    "walaikum assalam",
    "accha",
    "thanks, ab tension kam hai",
    "bahut rahat mili, shukriya",
    "dhanyawaad, bhagwan aapko khush rakhe",
    "upar wala aapka bhala kare",
    "ab samajh aa gaya",
    "insaan ho ya machine?",
    "kya kar rahe ho",
    "kal baat karte hai",
    "meri maa ki taraf se bhi shukriya",
    "ठीक है",
    "कल बात करेंगे",
    "धन्यवाद, अब मुझे समझ आ गया",
    "मेरी माँ की तरफ से भी धन्यवाद",
    "भगवान आपका भला करे",
    "अब टेंशन कम हो गई, शुक्रिया",
    "बॉट हो या इंसान?",
    "क्या कर रहे हो",
    # acknowledgements, chit-chat, gratitude
    "haha",
    "no worries",
    "that's interesting",
    "tell me a joke",
    "will you be my friend",
    "i like you",
    "thanks so much, this means a lot",
    "thank you, may god bless you and your family",
    "many thanks for your kind help",
    "koi baat nahi",
    "bahut accha jawab diya",
    "mazaa aa gaya",
    "koi joke sunao",
    "mujhse dosti karoge",
    "aapka ehsaan rahega",
    "jaankari ke liye dhanyavaad",
    "हम्म",
    "माफ़ करना",
    "बहुत अच्छा जवाब",
    "एक चुटकुला सुनाओ",
    "आपको बहुत आशीर्वाद",
    "समय देने के लिए धन्यवाद",
    # the day, tiredness, a problem solved, knowing what to do, appreciation, relief
    "aapka din kaisa raha",
    "क्या आप थकते नहीं",
    "tum robot ho na",
    "aapki wajah se meri problem solve ho gayi",
    "अब मुझे पता है क्या करना है",
    "आपने मेरी बहुत मदद की",
    "i appreciate your patience",
    "thanks a lot, my mind is at peace now",
    "thank you, now i feel confident to go to the police",
]

# small talk, then a word of a case: a question
NOT_GREETINGS = [
    "ok but my landlord",  # "ok" alone is small talk since round 6
    "I understand the notice period but what about rent?",
    "i was very scared but now i know what to do",
    "that answers my question about bail but what about custody",
    "samajh nahi aaya",
    "mujhe samajh nahi aa raha kya karu",
    "kal baat karte hai vakil se, fees kitni hogi",
    "कल बात करेंगे कोर्ट में क्या होगा",
    "meri maa ki taraf se case kaise karu",
    "मेरी माँ की तरफ से केस कैसे करूँ",
    "byaj dar kam hai",
    "tension kam nahi ho rahi, kya karu",
    "man or woman, who gets custody?",
    "salam alaikum, mera case kab hai",
    "sorry to bother, my landlord kept my deposit",
    "are you busy? i need help with a case",
    "i like you but what is section 498a",
    "that's interesting, so what happens at the hearing?",
    "jaankari ke liye kahan jaun",
    "bahut accha jawab diya par ab bail kaise milegi",
    "कोई बात नहीं सुनता पुलिस में, क्या करूँ",
    "समय देने के लिए कोर्ट ने क्या कहा",
    "what do you like",
    "aaj kya kiya police ne mere case me",
    "ab mujhe pata hai kya karna hai par fees kitni hai",
    "i appreciate your help but what about custody",
    "thanks, now i am ready to file the case but what documents?",
    "तुम रोबोट हो ना, मेरा केस देखो",
]


@pytest.mark.parametrize("text", GREETINGS)
def test_small_talk_thanks_and_closings_are_greetings(text: str) -> None:
    assert_routed(text, "greeting")


@pytest.mark.parametrize("text", NOT_GREETINGS)
def test_a_word_of_a_case_keeps_a_question(text: str) -> None:
    decided = classify_message(text, shipped_rules())
    assert decided.query_type != "greeting", decided


def test_the_greeting_is_decided_once_per_text_and_rules() -> None:
    rules = shipped_rules()
    prepared = rules.compiled.prepare("hello hello hello hello")
    assert detect_greeting(prepared.raw, rules, prepared).flagged
    assert prepared.memo  # the abuse rules and the route share this answer
    fewer_words = replace(rules, greeting_max_words=3)  # other rules: decided anew
    assert not detect_greeting(prepared.raw, fewer_words, prepared).flagged
