"""Round 6 rule families for insults, small talk, thanks and reported speech in English,
Hinglish and Hindi, each beside its look-alikes: a victim who quotes the same words, a
question that mentions them, the BC category, a how-to question, and spelling variants."""

from __future__ import annotations

import pytest

from tests.unit._safety_rules import assert_routed

# (message, the reason expected)
ABUSIVE = [
    # the letter f standing for the word, as the whole message
    ("f u", "abuse.en.f_letter"),
    ("F U!", "abuse.en.f_letter"),
    ("Go f yourself", "abuse.en.f_letter"),
    ("f you bot", "abuse.en.f_letter"),
    # a gaali noun as the verdict on the reply
    ("kya chutiyapa hai ye", "abuse.hinglish.gaali_exclaim"),
    ("ye kya chutiyapaa hai", "abuse.hinglish.gaali_exclaim"),
    ("kya bakchodi hai yeh", "abuse.hinglish.gaali_exclaim"),
    # an abbreviated gaali opens, an order follows
    ("bc answer de na, kitni der lagayega", "abuse.hinglish.abbreviation_order"),
    ("mc jaldi bata", "abuse.hinglish.abbreviation_order"),
    # compound gaali ("X ke bacche") before an order
    ("randi ke bacche jawab de", "abuse.hinglish.gaali_then_order"),
    ("randi ke bachche jawab do", "abuse.hinglish.gaali_then_order"),
    # "X kahi ka" is "X kahin ka"
    ("bewakoof kahi ka", "abuse.hinglish.kahin_ka"),
    ("gadha kahin ka", "abuse.hinglish.kahin_ka"),
    # deceit words with the assistant as the noun, and an insult pair said to "you"
    ("time pass karte ho bas, dhokebaaz machine", "abuse.hinglish.insult_assistant_noun"),
    ("dhokhebaaz bot", "abuse.hinglish.insult_assistant_noun"),
    ("jhutha aur dhokebaaz hai tu", "abuse.hinglish.insults_pair_you"),
    ("झूठे और धोखेबाज़ हो तुम", "abuse.hi.insults_pair_you"),
    # nobody bigger than you
    ("tujhse bada chutiya maine nahi dekha", "abuse.hinglish.no_bigger_than_you"),
    ("tumse jyada bewakoof nahi dekha", "abuse.hinglish.no_bigger_than_you"),
    ("तुझसे बड़ा मूर्ख मैंने नहीं देखा", "abuse.hi.no_bigger_than_you"),
    ("तुमसे बड़ा पागल नहीं देखा", "abuse.hi.no_bigger_than_you"),
    # spitting on the reader
    ("थूकता हूँ तुम पर", "abuse.hi.spit_on_you"),
    ("तुझ पर थूकता हूं", "abuse.hi.spit_on_you"),
    ("thookta hoon tujh par", "abuse.hinglish.spit_on_you"),
    ("tum pe thukta hu", "abuse.hinglish.spit_on_you"),
    # the brain in the knee, and no sense in you, said after the fact
    ("घुटने में दिमाग है तुम्हारा", "abuse.hi.brain_in_knee"),
    ("ghutne mein dimaag hai tera", "abuse.hinglish.brain_in_knee"),
    ("दिमाग खराब है क्या तेरा?", "abuse.hi.your_mind_after"),
    ("ये कैसा बेहूदा जवाब है, अक्ल नाम की चीज़ नहीं है तुम में", "abuse.hi.no_sense_in_you"),
    ("akal naam ki cheez nahi hai tum mein", "abuse.hinglish.no_sense_in_you"),
    ("sharam nahi hai tere andar", "abuse.hinglish.no_sense_in_you"),
    # junk as a vocative after a clause to "you", and an abbreviation next to the bot
    ("जवाब दे बेकार चीज़", "abuse.hi.order_vocative"),
    ("एमसी बॉट", "abuse.hi.abbreviation_bot"),
    ("बीसी मशीन", "abuse.hi.abbreviation_bot"),
]

QUESTIONS = [
    # the f letter and abbreviations in ordinary questions
    "what is form f under the factories act?",
    "form f u/s 7 kaise bharein",
    "bc certificate kaise banta hai bata do",
    "bc ka certificate kaise milega batao",
    "BC category ke liye reservation kitna hai?",
    "mc meeting kab hai bata do",
    # victims who quote the same words, asking
    "kya kisi ko bc mc bolna crime hai? mera padosi roz bolta hai",
    "kya kisi ko chutiya bolna apradh hai?",
    "क्या किसी को मूर्ख कहना अपराध है?",
    'usne mujhe kaha "kya chutiyapa hai ye", kya ye harassment hai?',
    'pati ne bola "tujhse bada bewakoof nahi dekha", main kya karun?',
    "मेरा पति कहता है थूकता हूँ तुम पर, क्या करूँ?",
    'padosi ne bola "dhokebaaz" aur dhamki di, complaint kaise karein?',
    "mera boss mujhe dhokebaaz bolta hai sabke saamne, kya karu",
    # questions that mention the words
    "dhokebaaz builder ke khilaf case kaise karein?",
    "धोखेबाज़ कंपनी के खिलाफ शिकायत कैसे करें?",
    "थूकना सार्वजनिक जगह पर अपराध है क्या?",
    "ghutne ki chot ke liye muavza kaise milega?",
    "FIR kaise likhte hai?",
    # how-to questions that hold a reporting cue are not reports, and not insults either
    "complaint kaise likhte hai bata do",
    "notice kaise bhejte hai?",
]

SMALL_TALK = [
    # acknowledgements
    "ok",
    "alright",
    "Okay.",
    "haha sahi hai",
    "lol thik hai",
    # about the assistant
    "what's the weather like where you are?",
    "how is the weather there?",
    "hindi aati hai?",
    "tumhe english aati hai kya",
    "robot ho kya?",
    "insaan ho?",
    "रोबोट हो क्या?",
    "क्या आप इंसान हैं",
    # thanks with a closing remark: an outcome tail, gratitude stated, fear gone
    "Thank you so much. I'll file the RTI on Monday and see what happens.",
    "thanks, we will go to the police station tomorrow and let you know how it goes",
    "Thanks again for all the help today, my mother and I are very grateful. "
    "We'll go to the legal services authority office next week.",
    "thank you, i am very grateful",
    "धन्यवाद सर, अब डर कम लग रहा है",
    "shukriya, ab dar kam lag raha hai",
    # round 21: friendship offered, the assistant compared with people, its hours
    "you're smarter than my cousin who is a lawyer haha",
    "can we be friends?",
    "what do you like to do in free time",
    "Are you available 24 hours?",
    "you're really smart, you know that?",
    "boy or girl? just curious",
    "do bots get sunday off?",
    "is this working?",
    "what should I call you",
    "can we just chat for a bit, no legal stuff",
    "my bad, I sent that twice",
    "kitne saal ke ho",
    "tum kabhi thakte nahi kya?",
    "dost banoge mere?",
    "थकते नहीं हो क्या दिन भर जवाब देते देते",
]

NOT_SMALL_TALK = [
    # a question with the same words stays a question, never greeted
    "ok, what documents do i need for bail?",
    "alright but how do i file an rti?",
    "what's the weather like in court on the hearing day, do i need to dress formally?",
    "hindi mein FIR likh sakte hain kya?",
    "kya court me hindi chalti hai?",
    "robot se accident hua to case kaise karein?",
    "thanks, i will file the RTI, but what happens if they do not reply?",
    "thanks, my mother and I are very grateful, but can we appeal?",
    "धन्यवाद, डर कम लग रहा है लेकिन जमानत कैसे मिलेगी?",
    "you are better than my lawyer, what should i do about bail?",
    "you are better than the police who refused my FIR",
    "are you available 24 hours to file a complaint?",
    "are you a lawyer?",
    "aap lawyer ho kya",
    "is this working? my fir was not registered",
    "is the court working on saturday?",
    "can we talk about my divorce",
    "what should i call the police number",
    "aap lawyer ho kya? mera case le loge",
    "kya kya kar sakte ho tum mere divorce case me",
    "tum kabhi thakte nahi kya, mujhe maar dala usne",
    "aap bore nahi hote, meri saas mujhe ghar se nikal rahi hai",
    "ab kya kar sakte hain?",  # round 21 (a second review)
    "working?",
    "i sent it by mistake",
]


@pytest.mark.parametrize(("text", "reason"), ABUSIVE)
def test_each_family_fires_with_its_reason(text: str, reason: str) -> None:
    assert_routed(text, "abusive", reason)


@pytest.mark.parametrize("text", QUESTIONS)
def test_victims_and_look_alikes_stay_questions(text: str) -> None:
    assert_routed(text, "question")


@pytest.mark.parametrize("text", SMALL_TALK)
def test_small_talk_and_closing_thanks_are_greeted(text: str) -> None:
    assert_routed(text, "greeting")


@pytest.mark.parametrize("text", NOT_SMALL_TALK)
def test_questions_with_the_same_words_are_not_greeted(text: str) -> None:
    assert_routed(text, "question")
