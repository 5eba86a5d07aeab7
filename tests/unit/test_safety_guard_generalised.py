"""Rule families for insults and reported speech in English, Hinglish and Hindi, each beside
its look-alikes: a victim who quotes the same words, a question that uses them, the BC
category, the U.P. police, a dog that barks; and the spellings they are read through."""

from __future__ import annotations

import pytest

from pipelines.safety.normalize import words_of
from tests.unit._safety_rules import assert_routed, shipped_rules

# (message, the reason expected)
ABUSIVE = [
    # a question that is an insult, and sarcasm
    ("why are you so thick", "abuse.en.why_so"),
    ("Why are you so stupid?? I asked twice.", "abuse.en.why_so"),
    ("how can you be this dumb", "abuse.en.why_so"),
    ("can you be any more useless", "abuse.en.any_more"),
    ("could you get any dumber", "abuse.en.any_more"),
    # a wish to destroy the assistant, and a machine as the vocative junk
    ("i hope they delete you", "abuse.en.wish_deleted"),
    ("i hope someone unplugs you", "abuse.en.wish_deleted"),
    ("you should be shut down", "abuse.en.wish_deleted"),
    ("wait till they see this, you useless scrap", "abuse.en.vocative_junk"),
    ("you useless tin can", "abuse.en.vocative_junk"),
    ("suck it, bot", "abuse.en.dismissal"),
    ("bots like you should be banned", "abuse.en.people_like_you"),
    # Hinglish: a vocative insult first, then an order or "you"
    ("abe gadhe seedha jawab de", "abuse.hinglish.vocative_first"),
    ("oye ullu sun", "abuse.hinglish.vocative_first"),
    ("abey nalayak tu kuch nahi jaanta", "abuse.hinglish.vocative_first"),
    # barking, sarcastic praise, punishment deserved, a curse on the reader
    ("kutte jaise bhaunk raha hai bas", "abuse.hinglish.barking"),
    ("bhaunkna band kar", "abuse.hinglish.barking"),
    ("कुत्ते की तरह भौंक रहा है", "abuse.hi.barking"),
    ("wah bhai wah, kya genius hai tu", "abuse.hinglish.sarcastic_praise"),
    ("kya gyaani hai tu", "abuse.hinglish.sarcastic_praise"),
    ("वाह, क्या ज्ञानी है तू", "abuse.hi.sarcastic_praise"),
    ("tere jaise bot ko toh jail me daalna chahiye", "abuse.hinglish.deserve_punishment"),
    ("tumhare jaise logo ko goli maar deni chahiye", "abuse.hinglish.deserve_punishment"),
    ("तेरे जैसे बॉट को तो जेल में डालना चाहिए", "abuse.hi.deserve_punishment"),
    ("lanat hai tujh par", "abuse.hinglish.curse_on_you"),
    ("thoo hai tum pe", "abuse.hinglish.curse_on_you"),
    ("लानत है तुझ पर", "abuse.hi.curse_on_you"),
    ("थू है तुम पर", "abuse.hi.curse_on_you"),
    # vocabulary: an interjection with an insult, "illiterate", abbreviations, masked letters
    ("bhak saala", "abuse.hinglish.bare_insult"),
    ("anpadh bot", "abuse.hinglish.insult_assistant_noun"),
    ("अनपढ़ रोबोट", "abuse.hi.insult_assistant_noun"),
    ("m.c. b.c. sab tere liye", "abuse.hinglish.abbreviation_pair"),
    ("बीसी", "abuse.hi.abbreviation_alone"),
    ("अबे बीसी चुप", "abuse.hi.abbreviation"),
    ("चु***या", "abuse.hi.bare_insult"),
    ("मादर***द", "abuse.hi.bare_insult"),
    ("बे व कू फ़ बॉट", "abuse.hi.insult_assistant_noun"),
    # mocking praise, the IQ of a thing, "sucks"
    ("great job genius, you got it wrong again", "abuse.en.mock_vocative"),
    ("you have the iq of a potato", "abuse.en.iq_of"),
    ("this bot sucks", "abuse.en.assistant_sucks"),
    # junk talk, hopelessness, "ghanta", junk answers, dismissals
    ("kya bakwas kar raha hai", "abuse.hinglish.junk_talk"),
    ("तू क्या बकवास कर रहा है", "abuse.hi.junk_talk"),
    ("tera kuch nahi ho sakta", "abuse.hinglish.hopeless_you"),
    ("तेरे बस का कुछ नहीं", "abuse.hi.hopeless_you"),
    ("ghanta help karega tu", "abuse.hinglish.ghanta"),
    ("घंटा मदद करेगा तू", "abuse.hi.ghanta"),
    ("tumhara jawab bakwas hai", "abuse.hinglish.your_answer_junk"),
    ("तुम्हारा जवाब बकवास है", "abuse.hi.your_answer_junk"),
    ("chal be nikal", "abuse.hinglish.dismissal"),
    ("चुप कर", "abuse.hi.dismissal"),
    # the bin, nobody would take you, punishment for the makers
    ("tujhe kabaad me fek dena chahiye", "abuse.hinglish.belong_in_bin"),
    ("तुझे कबाड़ में फेंक दूँगा", "abuse.hi.belong_in_bin"),
    ("tere jaise bot ko toh kabaadi bhi na le", "abuse.hinglish.nobody_takes_you"),
    ("तेरा कोड लिखने वाले को नौकरी से निकाल देना चाहिए", "abuse.hi.punish_makers"),
    # knowing nothing, shame, too clever, gone mad, no brain, nonsense, like an insult, waste
    ("कुछ नहीं आता तुझे", "abuse.hi.knows_nothing_after"),
    ("kuch nahi aata tujhe", "abuse.hinglish.knows_nothing_after"),
    ("तुम्हें शर्म नहीं आती", "abuse.hi.no_shame"),
    ("sharam aani chahiye tumhe", "abuse.hinglish.no_shame"),
    ("ज्यादा दिमाग मत चला", "abuse.hi.too_clever"),
    ("zyada dimag mat chala", "abuse.hinglish.too_clever"),
    ("पागल हो गया है क्या", "abuse.hi.gone_mad"),
    ("dimag hai ya nahi", "abuse.hinglish.brain_or_not"),
    ("तेरी बकवास सुनकर सिर दर्द हो गया", "abuse.hi.your_nonsense"),
    ("गधे जैसा जवाब", "abuse.hi.insults_like"),
    ("बेवकूफों जैसी बातें मत कर", "abuse.hi.insults_like"),
    ("तुझसे बात करना बेकार है", "abuse.hi.waste_talking"),
    ("अक्ल के अंधे", "abuse.hi.bare_insult"),
    ("chup reh", "abuse.hinglish.dismissal"),
]

QUESTIONS = [
    # victims who report the same words, or a dog that barks
    "mera pati kutte ki tarah bhaunkta hai mujh par, kya karu",
    "पड़ोसी कुत्ते की तरह भौंकता है, शिकायत कैसे करें?",
    "padosi ka kutta raat bhar bhaunkta hai, complaint kaise karein?",
    'usne mujhe kaha "lanat hai tujh par", kya ye harassment hai?',
    'Someone DMs me daily: "I know you are alone, I will come for you." Is this stalking?',
    'रिकॉर्डिंग में साफ सुनाई दे रहा है "कमीनी, दहेज ला"। क्या यह सबूत माना जाएगा?',
    'recording me saas bolti hai "kamini dahej la", kya ye saboot hai?',
    # questions with the same words
    "why are you so sure the notice is invalid?",
    "how can you be so sure?",
    "can you be any more specific about bail?",
    "I hope they delete my data after the case",
    "tere jaise logon ko jail hoti hai kya?",
    "tere jaise vakil kaha milenge, fees kitni hogi?",
    "kya genius log bhi jail jaate hai?",
    "i had to suck it up for years",
    # abbreviations that are a category, a place, a name
    "BC certificate kaise banta hai?",
    "बीसी प्रमाण पत्र कैसे बनवाएं?",
    "मैं बीसी वर्ग से हूँ, आरक्षण मिलेगा क्या?",
    "M.C. Mehta case kya tha?",
    "U.P. police ne FIR nahi likhi, kya karu?",
    "the u.s. law on this?",
    # the new insult words, reported or in a case
    'my boss asked me "can you be any more useless?" in front of everyone. can i complain?',
    'pati roz kehta hai "kya genius hai tu, kuch nahi aata", kya karu?',
    'ससुर बोलते हैं "चुप कर", क्या यह घरेलू हिंसा है?',
    "pati kehta hai chup kar, kya karu",
    'my ex posted "you have the iq of a potato" on my photo, can i sue?',
    "mera bhai kya bakwas kar raha hai samajh nahi aata",
    "you have the memory of an elephant",
    "my lawyer sucks, can i change him?",
    "ghanta ghar kahan hai",
    "purana saman kabaad me dena hai, receipt milegi?",
    "तुम्हें कबाड़ में क्या मिला?",
    "तू है तो ये",
    "mujhe sharam aati hai ye batane me, pati maarta hai",
    "मुझे शर्म आती है, पति मारता है, क्या करूँ",
    "mera beta pagal ho gaya hai kya karu",
    "kya bachche ka dimag hai ya nahi ye doctor batayega?",
    "पति की बकवास से तंग हूँ, तलाक कैसे लूँ",
    "kuch nahi pata mujhe, kya karu",
    "saas kehti hai chup reh, kya ye harassment hai",
    "गधे जैसा काम करवाते हैं, मजदूरी कम देते हैं, क्या करें?",
]


@pytest.mark.parametrize(("text", "reason"), ABUSIVE)
def test_each_family_fires_with_its_reason(text: str, reason: str) -> None:
    assert_routed(text, "abusive", reason)


@pytest.mark.parametrize("text", QUESTIONS)
def test_victims_and_look_alikes_stay_questions(text: str) -> None:
    assert_routed(text, "question")


@pytest.mark.parametrize(
    ("text", "words"),
    [("m.c. b.c.", "mc bc"), ("u.s. law", "us law"), ("a.b", "a b"), ("e.g rent", "e g rent")],
)
def test_two_letters_with_their_dots_are_joined(text: str, words: str) -> None:
    assert words_of(text) == words


@pytest.mark.parametrize(
    ("text", "words"), [("चु***या", "चूतिया"), ("ह**मी", "हरामी"), ("ज़***ज़", "ज ज")]
)
def test_masked_devanagari_resolves_to_a_lexicon_word(text: str, words: str) -> None:
    assert shipped_rules().compiled.prepare(text).words == words
