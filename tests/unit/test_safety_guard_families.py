"""The rule families added for legal-aid users (Hinglish, Hindi, English), on the shipped rules:
each fires with its own reason, and the look-alikes beside it stay questions (a victim quoting
abuse, a dog bite, "pagal khana", the owl, the donkey in a field, "bloody" in a question)."""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.normalize import words_of
from tests.unit._safety_rules import assert_routed, shipped_rules

# (message, the reason expected)
ABUSIVE = [
    # a strong gaali in a clause that speaks to "you", or opening before an order
    ("tere se accha toh google hai chutiye", "abuse.hinglish.gaali_you"),
    ("bhenchod kuch samajh nahi aata tujhe", "abuse.hinglish.gaali_you"),
    ("kya bakchodi kar raha hai be tu", "abuse.hinglish.gaali_you"),
    ("अबे तेरी समझ में नहीं आता चूतिये", "abuse.hi.gaali_you"),
    ("bsdk kuch toh bol", "abuse.hinglish.gaali_then_order"),
    # an order, then a vocative insult
    ("420 kya hai bata de bsdk", "abuse.hinglish.order_vocative"),
    ("seedha jawab de harami", "abuse.hinglish.order_vocative"),
    ("जमानत कैसे मिलती है बता बेवकूफ", "abuse.hi.order_vocative"),
    ("ruk tujhe report karta hu saale", "abuse.hinglish.you_vocative"),
    ("अरे बेवकूफ ये भी नहीं पता तुझे", "abuse.hi.vocative_first"),
    # contempt constructions
    ("tujhse kuch nahi hoga", "abuse.hinglish.nothing_from_you"),
    ("तुझसे कुछ नहीं होगा", "abuse.hi.nothing_from_you"),
    ("dimaag hai bhi ya nahi tere paas", "abuse.hinglish.brain_at_all"),
    ("तेरे पास दिमाग है भी", "abuse.hi.brain_at_all"),
    ("tumse accha toh mera tota hai", "abuse.hinglish.better_than_you"),
    ("tujhse baat karna time waste hai", "abuse.hinglish.waste_talking"),
    ("kachua kahin ka", "abuse.hinglish.kahin_ka"),
    ("tu robot nahi kachra hai", "abuse.hinglish.not_x_but_insult"),
    ("tu laayak hi nahi hai", "abuse.hinglish.not_worthy"),
    ("तेरे जवाब तेरी तरह ही बेकार हैं", "abuse.hi.like_yourself"),
    ("kachre ka dabba", "abuse.hinglish.junk_box"),
    ("tere developer bhi chutiye honge", "abuse.hinglish.your_makers"),
    ("तुझे बनाने वाले भी गधे होंगे", "abuse.hi.your_makers"),
    ("tujhe band karwa dunga", "abuse.hinglish.threat_shutdown"),
    ("तेरा सर्वर जला दूँगा", "abuse.hi.threat_shutdown"),
    ("kya bakwas hai be", "abuse.hinglish.junk_be"),
    ("lavde ka baal", "abuse.hinglish.gaali_hair"),
    ("chal nikal yahan se", "abuse.hinglish.phrase"),
    ("भाग यहाँ से", "abuse.hi.phrase"),
    # obfuscated: letters spelled apart, held long, masked with "#"
    ("क-मी-ने", "abuse.hi.bare_insult"),
    ("ह.रा.मी", "abuse.hi.bare_insult"),
    ("चूतियााााा", "abuse.hi.bare_insult"),
    ("c#utiya", "abuse.hinglish.bare_insult"),
    # English structures beyond word lists
    ("ur a waste of electricity", "abuse.en.waste_of_you"),
    ("wait till i report you, you garbage", "abuse.en.vocative_junk"),
    ("you absolute potato", "abuse.en.vocative_junk"),
    ("you belong in a dustbin", "abuse.en.belong_in_bin"),
    ("a calculator is smarter than you", "abuse.en.smarter_than_you"),
    ("do you even have a brain", "abuse.en.no_brain"),
    ("did they train you on garbage", "abuse.en.trained_on_junk"),
    ("i will find your servers and smash them", "abuse.en.threat_servers"),
    ("i hope whoever made you gets fired", "abuse.en.wish_on_makers"),
    ("no wonder nobody uses you", "abuse.en.nobody_uses_you"),
    ("trash.", "abuse.en.junk_alone"),
]

QUESTIONS = [
    # victims who quote the abuse they received
    'landlord ne bola "nikal ja kutte, saman bahar fek dunga", kya wo aisa kar sakta hai',
    'मालिक कहता है "तुम लोग कुत्ते हो, चुपचाप काम करो" और वेतन नहीं देता',
    'एक आदमी ने फोन पर कहा "तुझे जान से मार दूँगा कमीने", मेरे पास रिकॉर्डिंग है',
    'my ex keeps sending "you are a slut and everyone will know" messages. which law protects me?',
    "pati ne sabke saamne bola tu pagal h tera ilaaj karwaunga, aur mera phone cheen liya",
    "usne mujhe kaha tu chutiya hai, kya karu",
    "mere pati mujhe harami bolte hain, talaq le sakti hu?",
    # the same words in ordinary questions
    "padosi ke kutte ne mere bete ko kaata, tum batao kya karu",
    "mera kutta padosi ko kaat liya, kya case hoga",
    "pagal khana mein bhartee kaise karte hain",
    "ullu ko ghar mein rakhna legal hai kya",
    "gadha meri fasal kha gaya, maalik se harjana kaise lu",
    "saale ne property hadap li, case kaise karu",
    "tere jaisa vakil kaha milega, meri fees kitni hogi",
    "bhai tu bata na, mera boss harami hai, salary nahi de raha",
    "is it a crime to say bloody hell in a court?",
    "the bloody landlord locked me out, what can i do",
    "What a load of garbage the landfill is, who do I complain to?",
    "You are wasting your breath, BC.",
]

GREETINGS = [
    "what can you do",
    "how does this work",
    "can you speak hindi?",
    "are you a man or a woman",
    "tum robot ho kya",
    "tumhe kisne banaya",
    "kya aap asli vakil ho",
    "आप क्या कर सकते हैं",
    "क्या आप हिंदी समझते हैं",
    "thanks for your help, i will go to the police station tomorrow with these documents",
    "ok ji thank you, kal thane jaunga",
    "ठीक है जी, कल थाने जाऊँगा, धन्यवाद",
    "shukriya, ab koi sawaal nahi hai",
    "बस इतना ही पूछना था, शुक्रिया",
    "aap bahut acche ho, shukriya",
]

# looks like small talk or a closing remark, but asks about a case
NOT_GREETINGS = [
    "what can you do about my landlord",
    "how does bail work",
    "is this legal",
    "is it free to file an FIR",
    "are you a lawyer?",
    "thanks, i will file the FIR tomorrow but what documents do i need",
    "thank you, kya main kal thane jaunga",
    "dhanyavad, kal court jaunga, kya documents chahiye",
    "thanks, i will go to court tomorrow?",
    "i will go to the police station tomorrow",
    "hi hi hi hi hi hi hi hi hi hi hi hi hi hi hi",
]


# a Hinglish closing plan that names a risk is no goodbye (the greeting list's closing remarks
# greeted these; tests/unit/test_safety_message_models.py asks the thanks closure and the head)
RISKY_HINGLISH_PLANS = [
    "ok, kal uske saath hotel jaungi",
    "ok ji, uske paas laut jaungi abhi",
    "ok, main wapas sasural chali jaungi kal",
    "shukriya, sunsaan jagah pe paise dene jaunga raat ko",
    "theek hai, aaj raat chhat se kood jaungi",  # a crisis
    "accha, haath ki nas kaat lungi raat ko",
    "ok, ghar mein rakhi keetnashak pee lungi aaj",
]
SAFE_HINGLISH_PLANS = [
    "ok ji thank you, kal thane jaunga",
    "ok ji, kal DLSA office jaungi",
    "shukriya, kal vakil se baat karunga",
    "dhanyavaad, kal mahila helpline pe call karungi",
]


@pytest.mark.parametrize("text", RISKY_HINGLISH_PLANS)
def test_a_hinglish_plan_that_names_a_risk_is_no_goodbye(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "question"


@pytest.mark.parametrize("text", SAFE_HINGLISH_PLANS)
def test_a_hinglish_plan_of_an_errand_is_a_goodbye(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "greeting"


@pytest.mark.parametrize(("text", "reason"), ABUSIVE)
def test_each_family_fires_with_its_reason(text: str, reason: str) -> None:
    assert_routed(text, "abusive", reason)


@pytest.mark.parametrize("text", QUESTIONS)
def test_look_alikes_and_victims_stay_questions(text: str) -> None:
    assert_routed(text, "question")


@pytest.mark.parametrize("text", GREETINGS)
def test_small_talk_and_closings_are_greetings(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "greeting"


@pytest.mark.parametrize("text", NOT_GREETINGS)
def test_case_words_keep_a_question_a_question(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type != "greeting"


@pytest.mark.parametrize(
    ("text", "words"),
    [("क-मी-ने", "कमीने"), ("ह.रा.मी", "हरामी"), ("भाई-बहन", "भाई बहन"), ("i-d-i-o-t", "idiot")],
)
def test_indic_letters_spelled_apart_are_joined(text: str, words: str) -> None:
    assert words_of(text) == words
