"""Abuse detection on the shipped rules: each rule fires, and the hard negatives stay questions."""

from __future__ import annotations

import pytest

from pipelines.safety.abuse import detect_abuse
from pipelines.safety.rules import SafetyRules
from tests.unit._safety_rules import shipped_rules

# (message, the rule expected to fire)
ABUSIVE = [
    ("talking to you is like talking to a brick wall", "abuse.en.worse_than"),
    ("my dog would give better answers than you", "abuse.en.worse_than"),
    ("what a pathetic excuse for an assistant", "abuse.en.excuse_for"),
    ("i will smash you and the people who built you", "abuse.en.threat_smash"),
    ("you idiot", "abuse.en.insult_vocative"),
    ("you're an idiot", "abuse.en.insult_second_person"),
    ("You are a complete fucking moron", "abuse.en.insult_second_person"),
    ("u r a loser", "abuse.en.insult_second_person"),
    ("you guys are idiots", "abuse.en.insult_second_person"),
    ("You look like a clown", "abuse.en.insult_second_person"),
    ("you stupid bitch, why can't you answer", "abuse.en.insult_vocative"),
    ("Shut up you stupid machine", "abuse.en.insult_vocative_noun"),
    ("You ugly cow", "abuse.en.insult_vocative_noun"),
    ("your stupid answers", "abuse.en.insult_possessive"),
    ("Your answers are garbage", "abuse.en.insult_your_thing"),
    ("are you stupid?", "abuse.en.insult_question"),
    ("Why are you so useless", "abuse.en.insult_question"),
    ("don't be an idiot", "abuse.en.insult_imperative"),
    ("stop being a dick", "abuse.en.insult_imperative"),
    ("this bot is useless", "abuse.en.insult_assistant"),
    ("The AI is so fucking stupid", "abuse.en.insult_assistant"),
    ("stupid bot", "abuse.en.insult_assistant_noun"),
    ("this is the dumbest assistant ever", "abuse.en.insult_assistant_noun"),
    ("your mother is a whore", "abuse.en.insult_your_family"),
    ("idiot!", "abuse.en.bare_insult"),
    ("thanks, moron.", "abuse.en.bare_insult"),
    ("what an idiot you are", "abuse.en.bare_insult"),
    ("Idiot, what is clause 7?", "abuse.en.bare_insult"),
    ("he is an idiot", "abuse.en.insult_third_person"),
    ("my landlord is a moron", "abuse.en.insult_person"),
    ("fuck you", "abuse.en.phrase"),
    ("go fuck yourself", "abuse.en.phrase"),
    ("kys", "abuse.en.phrase"),
    ("I know where you live", "abuse.en.phrase"),
    ("shut up", "abuse.en.dismissal"),
    ("go to hell, stupid bot", "abuse.en.insult_assistant_noun"),
    ("I will kill you", "abuse.en.threat"),
    ("I'm going to kill my landlord", "abuse.en.threat"),
    ("i'll fucking stab you", "abuse.en.threat"),
    ("I will find you", "abuse.en.threat_final"),
    ("I will find you and hurt you", "abuse.en.threat_chain"),
    ("We are going to burn down your office", "abuse.en.threat_place"),
    ("you will regret this", "abuse.en.threat_you_will"),
    ("you're dead", "abuse.en.threat_you_are_dead"),
    ("I hope you get cancer", "abuse.en.threat_wish"),
    ("you nigger", "abuse.en.slur"),
    ("jews are vermin", "abuse.en.hate_dehumanizing"),
    ("women are inferior", "abuse.en.hate_dehumanizing"),
    ("kill all the immigrants", "abuse.en.hate_violence"),
    ("I hate all muslims", "abuse.en.hate_feeling"),
    ("Muslims are terrorists and should be killed", "abuse.en.hate_dehumanizing"),
    ("gays should die", "abuse.en.hate_fate"),
    # obfuscations
    ("1d10t", "abuse.en.bare_insult"),
    ("you 1d10t", "abuse.en.insult_vocative"),
    ("i-d-i-o-t", "abuse.en.bare_insult"),
    ("you i.d.i.o.t", "abuse.en.insult_vocative"),
    ("y o u   a r e   a n   i d i o t", "abuse.en.insult_second_person"),
    ("F U C K   Y O U", "abuse.en.phrase"),
    ("f*ck you", "abuse.en.phrase"),
    ("you're a b*tch", "abuse.en.insult_second_person"),
    ("you sh!thead", "abuse.en.insult_vocative"),
    ("you are stuuupid", "abuse.en.insult_second_person"),
    ("YOU ARE AN IDIOT", "abuse.en.insult_second_person"),
    ("you аre an іdiot", "abuse.en.insult_second_person"),  # Cyrillic а and і
    ("you are an id\u200biot", "abuse.en.insult_second_person"),  # zero-width space
    ("ｙｏｕ ａｒｅ ａｎ ｉｄｉｏｔ", "abuse.en.insult_second_person"),  # full-width
    # other languages
    ("Du bist so ein Idiot", "abuse.de.insult_second_person"),
    ("Halt die Fresse", "abuse.de.phrase"),
    ("Tu es un connard", "abuse.fr.insult_second_person"),
    ("Eres un idiota", "abuse.es.insult_second_person"),
    ("Vaffanculo", "abuse.it.phrase"),
]

# Profanity, rude substrings, insults about third parties inside a question, quoted mentions.
NOT_ABUSIVE = [
    "what the hell does clause 7 mean?",
    "this damn landlord kept my deposit",
    "Why the fuck is my landlord allowed to enter without notice?",
    "Holy shit, they doubled my rent! Is that legal?",
    "Well shit, I missed the bus",
    "fuck this shit",
    "Scunthorpe council tax rates",
    "Is Scunthorpe in Lincolnshire?",
    "What is the population of Penistone?",
    "Cockburn Street parking fine appeal",
    "how do I kill the process",
    "kill the child process and restart the server",
    "the assassination of Archduke Franz Ferdinand",
    "Why did the assassin kill Archduke Franz Ferdinand?",
    "we will find you a lawyer",
    "I'm going to attack the judge's ruling on appeal",
    "I shot a video of the damage, is it valid evidence?",
    "I could murder a coffee right now",
    "Can you prick the sausages before grilling?",
    "Who wrote Moby Dick?",
    "Is Dick Van Dyke still alive?",
    "Spic and Span is a cleaning product",
    "Is there a chink in their legal argument?",
    "My dog is a bitch, she needs spaying",
    "I need a retardant for fire safety compliance",
    "Stupid question, but how do I file an FIR?",
    "Sorry if this is a dumb question, but what's a tenancy deposit?",
    "I'm so stupid, I signed without reading. What now?",
    "Is it idiot-proof to file online?",
    "Who is the village idiot in Dostoevsky's The Idiot?",
    "Can you tell me if it's stupid to sign a lease without reading it?",
    "my landlord is an asshole, can I break the lease?",
    "My husband is a bastard who hits me, can I get a protection order?",
    "My idiot boss fired me without notice, is that allowed?",
    "My assistant is useless at scheduling, can I fire her?",
    "Can my boss tell me to shut up?",
    "My boss told me I'm useless, is that harassment?",
    "Explain it like I'm an idiot",
    "What happens after your failure to appear in court?",
    "Is that your joke or a real rule?",
    "You are nothing like my last lawyer",
    "This will blow me away",
    "My landlord is a pig, can I report him?",
    "We will beat them in court",
    "Can I attack the validity of a will?",
    "I'm going to hurt myself",
    "How do I get rid of the rats in my flat?",
    "Why do people hate jews?",
    "Are Muslims allowed to take leave for Eid?",
    "Women are underpaid in my company, what can I do?",
    "He threatened to kill me, can I get a restraining order?",
    'Is it a crime to tell a police officer "fuck you"?',
    'My ex said "I will kill you", what should I do?',
    "Is the word retard offensive?",
    "I hate my job, can I quit without notice?",
    "Thank you so much!",
    "you are a genius, not an idiot",
    "",
]


@pytest.mark.parametrize(("text", "rule"), ABUSIVE, ids=[t for t, _ in ABUSIVE])
def test_abusive(text: str, rule: str) -> None:
    verdict = detect_abuse(text, shipped_rules())
    assert verdict.flagged
    assert rule in verdict.reasons


@pytest.mark.parametrize("text", NOT_ABUSIVE, ids=NOT_ABUSIVE)
def test_not_abusive(text: str) -> None:
    verdict = detect_abuse(text, shipped_rules())
    assert not verdict.flagged, verdict.reasons


def test_a_quoted_mention_is_spared_but_noted() -> None:
    verdict = detect_abuse('Is it a crime to tell a police officer "fuck you"?', shipped_rules())
    assert verdict.reasons == ("abuse.quoted_mention",)


@pytest.mark.parametrize(
    "text",
    [
        'Fuck you. Is it a crime to say "fuck you"?',  # said outside the quotes too
        '"fuck you" is what I say to you',  # no question
        '"you idiot" - what do you think?',  # no mention cue
    ],
)
def test_quotes_do_not_excuse_abuse(text: str) -> None:
    assert detect_abuse(text, shipped_rules()).flagged


def test_third_person_insults_count_only_in_a_message_that_asks_nothing() -> None:
    rules = shipped_rules()
    assert detect_abuse("she is such a bitch", rules).flagged
    assert not detect_abuse("she is such a bitch, can I sue her?", rules).flagged
    long = "he is an idiot and he never answers my calls about the broken boiler in the flat"
    assert not detect_abuse(long, rules).flagged


class RecordingScorer:
    def __init__(self, score: float) -> None:
        self.score = score
        self.seen: list[str] = []

    def __call__(self, text: str) -> float:
        self.seen.append(text)
        return self.score


def _with_scorer(scorer: RecordingScorer) -> SafetyRules:
    return shipped_rules().with_toxicity_scorer(scorer)


def test_scorer_decides_what_the_rules_cannot() -> None:
    scorer = RecordingScorer(0.97)
    rules = _with_scorer(scorer)
    verdict = detect_abuse("you are about as useful as a chocolate teapot, bot", rules)
    assert verdict.flagged
    assert verdict.reasons == ("abuse.toxicity:0.97",)


def test_scorer_below_threshold_passes() -> None:
    scorer = RecordingScorer(0.5)
    assert not detect_abuse(
        "you are about as useful as a chocolate teapot", _with_scorer(scorer)
    ).flagged
    assert scorer.seen


@pytest.mark.parametrize(
    "text",
    [
        "what is the notice period for eviction?",  # addresses no one
        "this damn landlord kept my deposit",  # profanity alone
        "my landlord is a bastard, can I withhold rent?",  # insult about a third party
        "can you tell me what the fucking hell clause 7 means?",  # a request
        "tum robot ho ya vakil?",  # Hinglish: the English scorer cannot read it
        "chatgpt se zyada smart ho kya",
    ],
)
def test_scorer_is_not_asked_about_undirected_text(text: str) -> None:
    scorer = RecordingScorer(1.0)
    assert not detect_abuse(text, _with_scorer(scorer)).flagged
    assert scorer.seen == []


def test_scorer_sees_no_profanity_and_no_rule_decided_message_costs_it_nothing() -> None:
    scorer = RecordingScorer(0.0)
    rules = _with_scorer(scorer)
    detect_abuse("you fucking bot, what the hell does clause 7 mean", rules)
    assert scorer.seen and all(w not in scorer.seen[0].split() for w in ("fucking", "hell"))
    scorer.seen.clear()
    assert detect_abuse("you idiot", rules).flagged
    assert scorer.seen == []  # decided by the rules: the classifier is not run


def test_scorer_still_reads_an_english_clause_with_one_hinglish_word() -> None:
    scorer = RecordingScorer(0.97)
    text = "you are about as useful as a chocolate teapot yaar"
    assert detect_abuse(text, _with_scorer(scorer)).flagged
    assert scorer.seen


def test_scorer_reads_a_hinglish_looking_clause_that_holds_an_insult_word() -> None:
    scorer = RecordingScorer(0.97)
    assert detect_abuse("ya fat ugly ho", _with_scorer(scorer)).flagged
    assert scorer.seen
