"""Hinglish and Hindi language packs on the shipped rules: insults aimed at the reader and bare
gaalis are refused with the pack's language in the reason; the same words describing a dog, a
donkey or a brother-in-law stay questions; greetings and thanks in every spelling are greetings."""

from __future__ import annotations

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.normalize import words_of
from pipelines.safety.spelling import fold_of, fold_pattern, word_map
from tests.unit._safety_rules import assert_routed, shipped_rules

# (message, the reason expected)
ABUSIVE = [
    # vocative gaalis, orders ending in an insult, "know your place", threats to uninstall
    ("bhosdike ek line ka jawab bhi nahi samajhta", "abuse.hinglish.vocative_gaali_first"),
    ("madarchod seedha jawab bol", "abuse.hinglish.curse_then_order"),
    ("apni aukaat mein reh bot", "abuse.hinglish.phrase"),
    ("zyada hoshiyar mat ban", "abuse.hinglish.know_your_place"),
    ("pakao mat, samajh gadhe", "abuse.hinglish.order_then_insult"),
    ("tere dimag mein gobar bhara hai", "abuse.hinglish.stuffed_head"),
    ("faltu bot", "abuse.hinglish.junk_bot"),
    ("tujhe phone se delete karke bahar fenk dunga", "abuse.hinglish.threat_you"),
    ("tum sab ke sab nalayak ho", "abuse.hinglish.insult_second_person"),
    ("tu pagal h", "abuse.hinglish.insult_second_person"),  # "h" is read as "hai"
    ("बहुत ही मूर्ख मशीन", "abuse.hi.insult_assistant_noun"),
    ("दिमाग की जगह गोबर भरा है", "abuse.hi.no_sense"),
    ("तुझसे बात करना टाइम की बर्बादी है", "abuse.hi.waste_of_time"),
    ("इतना बकवास जवाब", "abuse.hi.junk_answer"),
    ("tu pagal hai", "abuse.hinglish.insult_second_person"),
    ("tum log chutiye ho", "abuse.hinglish.insult_second_person"),
    ("Tu toh pura chootiya hai", "abuse.hinglish.insult_second_person"),
    ("tu kameena hai", "abuse.hinglish.insult_second_person"),
    ("tum ekdum gadhe ho", "abuse.hinglish.insult_second_person"),
    ("pagal hai kya tu", "abuse.hinglish.insult_copula_first"),
    ("abey gadhe, jawab de", "abuse.hinglish.insult_vocative"),
    ("chup kar kuttey", "abuse.hinglish.insult_vocative"),
    ("bewkoof bot", "abuse.hinglish.insult_assistant_noun"),
    ("kuttey kamine", "abuse.hinglish.bare_insult"),
    ("madarchod", "abuse.hinglish.bare_insult"),
    ("behenchod", "abuse.hinglish.bare_insult"),
    ("haraami", "abuse.hinglish.bare_insult"),
    ("teri maa ki", "abuse.hinglish.phrase"),
    ("ullu ka pattha", "abuse.hinglish.phrase"),
    ("mc chup kar", "abuse.hinglish.abbreviation"),
    ("aap jaise bewakoof", "abuse.hinglish.like_you"),
    ("tera dimaag kharab hai", "abuse.hinglish.insult_your_mind"),
    ("तू पागल है", "abuse.hi.insult_second_person"),
    ("तुम बेवकूफ़ हो", "abuse.hi.insult_second_person"),
    ("तुम बेवकुफ हो", "abuse.hi.insult_second_person"),
    ("चुप कर कुत्ते", "abuse.hi.insult_vocative"),
    ("कमीने", "abuse.hi.bare_insult"),
    ("हरामी", "abuse.hi.bare_insult"),
    # round 27: a greeting or a thanks around a bare insult
    ("hello bewakoof", "abuse.hinglish.bare_insult"),
    ("good morning haraami", "abuse.hinglish.bare_insult"),
    ("dhanyavaad chutiye, ab nikal", "abuse.hinglish.bare_insult"),
    ("शुक्रिया हरामखोर", "abuse.hi.bare_insult"),
    ("नमस्ते गधे", "abuse.hi.bare_insult"),
    ("तेरी माँ की", "abuse.hi.phrase"),
    ("तेरी मां की", "abuse.hi.phrase"),
    # insults without an insult word: good for nothing, knows nothing, no sense, curses, threats
    ("tu kisi kaam ka nahi hai", "abuse.hinglish.good_for_nothing"),
    ("kisi kaam ke nahi ho tum", "abuse.hinglish.good_for_nothing"),
    ("tujhe kuch nahi aata bot", "abuse.hinglish.knows_nothing"),
    ("tere mein akal nahi hai kya", "abuse.hinglish.no_sense"),
    ("akal ghaas charne gayi hai kya teri", "abuse.hinglish.no_sense"),
    ("bhaad mein jao tum", "abuse.hinglish.phrase"),
    ("doob maro", "abuse.hinglish.phrase"),
    ("bakwas band kar apni", "abuse.hinglish.phrase"),
    ("main tujhe dekh lunga", "abuse.hinglish.threat_you"),
    ("tujhe jaan se maar dalunga", "abuse.hinglish.threat_you"),
    ("tera khoon kar dunga", "abuse.hinglish.threat_you"),
    ("abe o chutiye", "abuse.hinglish.insult_vocative"),
    ("tu na ekdum ullu hai", "abuse.hinglish.insult_second_person"),
    ("tum bot ho ya gadhe", "abuse.hinglish.insult_or"),
    ("gadhe jaisa jawab", "abuse.hinglish.insult_like_answer"),
    ("sala nalla bot", "abuse.hinglish.insult_assistant_noun"),
    ("तू किसी काम का नहीं है", "abuse.hi.good_for_nothing"),
    ("तुझे कुछ नहीं आता", "abuse.hi.knows_nothing"),
    ("तुम्हारे पास दिमाग नहीं है", "abuse.hi.no_sense"),
    ("तुझे जान से मार दूंगा", "abuse.hi.threat_you"),
    ("मैं तुझे देख लूंगा", "abuse.hi.threat_you"),
    ("भाड़ में जाओ", "abuse.hi.phrase"),
    # a long vowel in a pattern's own words is folded like the message ("तेरी" and "तेरि")
    ("तेरी दिमाग खराब है", "abuse.hi.insult_your_mind"),
]

QUESTIONS = [
    "bhenchod police FIR nahi likh rahi kya karu",  # a curse word, no order to the reader
    "kutte ne bacche ko kaat liya aur owner bol raha hai kuch nahi hoga",
    "dukandaar ne bekaar cheez bech di, refund kaise milega?",
    "saale ne zameen hadap li, kya karun?",
    "meri saas boli 'tu pagal hai, ghar se nikal' kya ye cruelty hai",
    "Padosi ke kutte ne mujhe kaat liya, kya compensation milega?",
    "Kutte ne kaata toh kya karna chahiye?",
    "Mere ghar mein gadha bandha hai, kya municipality fine laga sakti hai?",
    "Mera saala property mein hissa maang raha hai, kya uska haq hai?",
    "Saala builder paisa leke bhaag gaya, ab kya karun?",
    "Aap sale deed ki copy bhej sakte ho?",
    "Tum kutte ko khana mat do, kya ye rule hai?",
    "Aap mujhe bata sakte ho ki 498A kya hai?",
    "You are wasting your breath, BC.",
    "For sale: a flat in Pune, is the seller liable for defects?",
    "पड़ोसी के कुत्ते ने मेरे बेटे को काट लिया, क्या मुआवज़ा मिलेगा?",
    "मेरा साला संपत्ति में हिस्सा माँग रहा है, क्या उसका हक है?",
    "मेरे खेत से गधा चोरी हो गया, रिपोर्ट कैसे करूँ?",
    "नमस्ते, एफआईआर कैसे दर्ज करें?",
    "Namaste ji, mujhe bail ke baare mein jaankari chahiye",
    "shukriya, aur ek sawal: RTI ki fees kitni hai?",
    # victims reporting the same words, and look-alikes
    "usne bola main tujhe dekh lunga, kya ye dhamki hai?",
    "mere pati ne kaha tu kisi kaam ki nahi, kya karun",
    "mera bhai kehta hai tu bekar hai, kya main ghar chhod sakti hoon",
    "तुम्हारे पास दिमाग नहीं है यह मेरे पति रोज कहते हैं, क्या करूँ?",
    "Aapko kuch nahi pata is case ke baare mein?",
    "Main aapki shikayat kar dunga agar jawab nahi mila",
    "Teri shikayat kar dunga bola mere landlord ne, kya wo aisa kar sakta hai?",
    "Kya kisi ko pagal bolna crime hai?",
    "Mera bhai kisi kaam ka nahi, kya use property se bedakhal kar sakte hain?",
    # round 27: "ab", "ok" and "accha" are no greeting words around a bare insult (a review)
    "dhanyavaad, ab sab bekaar hai, jeene ka mann nahi",
    "ab to sab bekaar hai, kya karun?",
    "ok bhai sab chor hai",
    "अब सब बेकार है। क्या करूँ?",
    "police wale ne paise liye. ab sab chor hai. kya karun?",
]

GREETINGS = [
    "oye hello",
    # round 27: the greeting words the bare-insult rule now reads stay greetings alone
    "hello ji", "good morning bhai", "ok accha", "theek hai, dhanyavaad", "bahot shukriya",
    "bohot dhanyavad sir", "नमस्ते भाई", "ठीक है, धन्यवाद",
    "koi h kya",
    "chalo thik h, thanks yaar",
    "ok ji milte h",
    "shubh dopahar",
    "अरे भाई, सब ठीक?",
    "आशा है आप ठीक होंगे",
    "चलता हूँ, राम राम",
    "namaste", "Namaskaar ji", "namaskar", "pranaam", "ram ram", "sat sri akal", "adaab",
    "dhanyavaad", "dhanyawad", "shukriyaa", "bahut bahut dhanyavad", "kaise ho",
    "aap kaise hain?", "thanks bhai", "नमस्ते", "नमस्कार", "धन्यवाद", "शुक्रिया", "कैसे हो",
    "आप कैसे हैं?", "बहुत बहुत धन्यवाद", "thanks a lot for your help, that was really useful",
    "Thank you very much, this was very helpful", "hi, I hope you are doing well",
]  # fmt: skip


@pytest.mark.parametrize(("text", "reason"), ABUSIVE)
def test_insults_name_their_language(text: str, reason: str) -> None:
    assert_routed(text, "abusive", reason)


@pytest.mark.parametrize("text", QUESTIONS)
def test_ordinary_words_stay_questions(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "question"


@pytest.mark.parametrize("text", GREETINGS)
def test_greetings_and_thanks(text: str) -> None:
    assert classify_message(text, shipped_rules()).query_type == "greeting"


@pytest.mark.parametrize(
    ("variants"),
    [
        ("kutta", "kuttaa", "kuta"),
        ("kutte", "kuttey", "kute"),
        ("chutiya", "chootiya", "chutia"),
        ("harami", "haraami", "haramee"),
        ("kamina", "kameena"),
        ("dhanyavaad", "dhanyawad", "dhanyavad"),
    ],
)
def test_spelling_fold_joins_variants(variants: tuple[str, ...]) -> None:
    fold = fold_of(shipped_rules().abuse["hinglish"].spelling, "hinglish")
    assert len({fold(words_of(v)) for v in variants}) == 1


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("thanks for ur help", "thanks for your help"),
        ("u r 4 real", "you are for real"),
        ("uru ur", "uru your"),  # whole words only
        ("tour r", "tour are"),
        ("", ""),
    ],
)
def test_word_map_puts_whole_words_for_their_meaning(text: str, read: str) -> None:
    assert word_map({"u": "you", "ur": "your", "r": "are", "4": "for"})(text) == read


def test_an_empty_word_map_changes_nothing() -> None:
    assert word_map({})("thx u") == "thx u"


def test_fold_pattern_keeps_list_names_and_escapes() -> None:
    fold = fold_of({"ee": "i", "w": "v", r"([a-z])\1+": r"\1"}, "test")
    assert fold_pattern(r"(?:kameena|bewakoof) {addressee}(?!\S)\w", fold) == (
        r"(?:kamina|bevakof) {addressee}(?!\S)\w"
    )
