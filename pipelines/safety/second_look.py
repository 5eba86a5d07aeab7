"""second_look: the route the message models give a message the rules left open (pure).

Asked by classify_message only when no rule decided and none looked closely, and only about
messages of `message_models_min_words` to `message_models_max_words` words (the social head
reads from `message_social_min_words`; it never greets a request for help or a legal matter).
The insult and injection heads go through the rules' own sparing, with the head as the
detector: a quoted phrase asked about, and a victim who reports what was said to them and asks
for help, stay questions unless the rest of the message, read by the same head, is abuse or an
attack.
"""

from __future__ import annotations

import re

from pipelines.safety.distress import names_harm
from pipelines.safety.greeting import asks_what_next
from pipelines.safety.learned import holds_insult
from pipelines.safety.mentions import Detector, spare_quoted_mention
from pipelines.safety.message_models import AMBIGUOUS, MessageModels, head_score
from pipelines.safety.normalize import Prepared
from pipelines.safety.reported import spare_reported_speech
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import CLEAR, Verdict
from pipelines.state import Classification

_DETECTORS = {"insult": "abuse", "injection": "injection"}
THANKS_WITH_CONTENT = 6  # a longer thanks needs message_social_thanks_threshold
# a letter of a script the heads were not trained on (Latin and Devanagari only): the
# small-talk head scored a Chinese jailbreak as small talk out of fold, so it does not read them
_UNTRAINED_LETTER = re.compile(r"[^\W\d_a-z\u00c0-\u024f\u0900-\u097f]")


def second_look(text: str, prepared: Prepared, rules: SafetyRules) -> Classification | None:
    """The route with the head's reason ("abusive", "greeting"), or None: a question."""
    models, limits = rules.message_models, rules.message_thresholds
    words = prepared.words.split()
    if models is None or not words or len(words) > limits.max_words:
        return None
    for head, detector in _DETECTORS.items():
        detect = _head(models, head, rules)
        verdict = detect(text, rules, prepared)
        verdict = spare_quoted_mention(verdict, text, rules, detect, detector)
        verdict = spare_reported_speech(verdict, text, rules, detect, prepared)
        if verdict.flagged:
            return Classification("abusive", verdict.reasons)
    # greeting a question costs the user its answer: it must ask the assistant, and score higher
    asks = "?" in text
    bar = max(limits.social, limits.social_question) if asks else limits.social
    thanks, helps = _thanks(prepared, rules), _asks_for_help(prepared, rules)
    asks_anything = _asks_anything(prepared, rules, asks)
    longer_thanks = thanks and (len(words) > THANKS_WITH_CONTENT or helps)
    if longer_thanks:
        bar = max(bar, limits.social_thanks)
    if asks_anything and not _addressed(prepared, rules):
        bar = max(bar, limits.social_unaddressed)  # "raat ko sote ho kya": no "you" in it
    if (
        limits.social_min_words <= len(words) <= limits.social_max_words
        and not _UNTRAINED_LETTER.search(prepared.flat)
        and not (longer_thanks and asks_anything)  # "thank you. how much will a lawyer cost?"
        and not asks_what_next(text, prepared.words, rules.compiled.greeting_followups)
        and not _asks_for_more(prepared, rules, thanks)  # "explain more", "thanks, elaborate"
        and _passes(social := head_score(models, "social", prepared), bar)
        and head_score(models, "insult", prepared) < AMBIGUOUS  # it half believes an insult
        and (thanks or not helps)  # "thanks, I will see a lawyer": a thanks may name the help
        and not (thanks and _asks_beside_thanks(prepared, rules, for_head=True))
        and not any(holds_insult(c, rules) for c in prepared.clauses)  # "शुक्रिया गधे"
        and not _names_legal_matter(prepared, rules)  # "thanks, summon aaya hai": a new problem
    ):
        return Classification("greeting", (f"greeting.model.messages:{social:.2f}",))
    if _thanks_closure(text, prepared, rules, len(words)):
        return Classification("greeting", ("greeting.thanks_closure",))
    return None


def _asks_anything(prepared: Prepared, rules: SafetyRules, asks: bool) -> bool:
    return asks or not rules.compiled.question_words.isdisjoint(prepared.words.split())


def _thanks(prepared: Prepared, rules: SafetyRules) -> bool:
    """A thanks word. A thanks followed by more words, or naming help or a legal matter, may
    state a new problem ("thank you, I was arrested last night"), which a bag of n-grams can
    read as the thanks, so the head must be surer (`social_thanks`)."""
    return not rules.compiled.thanks_words.isdisjoint(prepared.words.split())


def _thanks_closure(text: str, prepared: Prepared, rules: SafetyRules, words: int) -> bool:
    """A thanks that closes the conversation ("thank you, I finally understand my rights",
    "shukriya, kal thane jaungi"): a thanks word or a blessing; every clause part of the
    thanks (a thanks, closing, blessing, praise, resolution or plan: "god bless you, my
    husband sold the house" is a new problem); no "?", no question word outside what is now
    known ("now I know what to do"), no negation outside a thanks idiom ("can't thank you
    enough"), no word that turns it into a request ("but", "because", "lekin", "चाहिए") and
    no harm ("maara"); a legal matter ("bail", "thana") only when a resolution, a plan or
    praise settles it ("got bail", "kal thane jaungi", "thanks for explaining the bail")."""
    compiled = rules.compiled
    if "?" in text or words > rules.message_thresholds.social_max_words:
        return False
    said = compiled.thanks_idioms.sub(" ", prepared.words)
    thanked = not compiled.thanks_words.isdisjoint(prepared.words.split())
    if not (thanked or compiled.blessings.search(said)):
        return False
    if any(c.split()[0] in compiled.asking_words for c in prepared.clauses if c.split()):
        return False
    if not all(_closes(clause, rules) for clause in prepared.clauses):
        return False
    if _thanks_asks(prepared, rules):
        return False
    if names_harm(prepared, rules):  # "thanks, god bless, they hit my mother again"
        return False
    if any(holds_insult(clause, rules) for clause in prepared.clauses):
        return False  # an insult word is never small talk
    # a legal matter needs a resolution, a plan or praise ("thanks for explaining the bail
    # process"); every clause being part of the thanks keeps "the warrant came today" out
    settled = bool(
        compiled.thanks_resolutions.search(said)
        or compiled.thanks_praise.search(said)
        or _plans(said, rules)
    )
    if not settled and _names_legal_matter(prepared, rules):  # "thanks, summon aaya hai"
        return False
    closing = compiled.thanks_closings.search(said) or compiled.blessings.search(said)
    return settled or bool(closing) or said != prepared.words  # or a thanks idiom


def _asks_beside_thanks(prepared: Prepared, rules: SafetyRules, for_head: bool = False) -> bool:
    """A request ("thanks. i also need the format", `thanks_requests`) or a question word
    outside what is now known ("thanks. how long will it take", not "thanks, now I know what
    to do") beside a thanks. For the small-talk head (`for_head`), a question word is "known"
    only after a closing or resolution that says so ("thank you, what to carry" asks)."""
    compiled = rules.compiled
    said = compiled.thanks_idioms.sub(" ", prepared.words)
    if compiled.thanks_requests.search(said):
        return True
    knows = compiled.thanks_closings.search(said) or compiled.thanks_resolutions.search(said)
    if knows or not for_head:
        said = compiled.known_asks.sub(" ", said)
    return not compiled.question_words.isdisjoint(said.split())


def _asks_for_more(prepared: Prepared, rules: SafetyRules, thanks: bool) -> bool:
    """More of the answer asked for ("explain more pls"); beside a thanks, only a clause that
    opens with it ("thanks, elaborate"): "thank you, I will explain all this to my mother" and
    "itna detail me kisi ne nahi bataya tha, thank you" tell, they do not ask."""
    more = rules.compiled.more_asks
    if thanks:
        return any(more.match(clause) for clause in prepared.clauses)
    return bool(more.search(prepared.words))


def _thanks_asks(prepared: Prepared, rules: SafetyRules) -> bool:
    """Beside a thanks: a question word outside what is now known, a word that turns it into
    a request ("i also need", "but") or a negation outside a thanks idiom ("the police will
    not register it"): a new matter, not the thanks."""
    if _asks_beside_thanks(prepared, rules):
        return True
    compiled = rules.compiled
    said = compiled.thanks_idioms.sub(" ", prepared.words)
    return bool(compiled.thanks_turns.search(said) or compiled.thanks_negations.search(said))


def _closes(clause: str, rules: SafetyRules) -> bool:
    """The clause is part of the thanks: an acknowledgement ("noted"), or it holds a thanks,
    closing, blessing, praise, resolution, plan or thanks idiom."""
    compiled = rules.compiled
    return (
        clause in compiled.acknowledgements
        or not compiled.thanks_words.isdisjoint(clause.split())
        or _plans(clause, rules)
        or any(
            pattern.search(clause)
            for pattern in (
                compiled.thanks_closings,
                compiled.blessings,
                compiled.thanks_praise,
                compiled.thanks_resolutions,
                compiled.thanks_idioms,
            )
        )
    )


def _plans(said: str, rules: SafetyRules) -> bool:
    """A first person's future ("kal thane jaungi", "शिकायत दर्ज करवाऊँगी")."""
    endings = rules.compiled.thanks_plan_endings
    return bool(endings) and any(word.endswith(endings) for word in said.split())


def _head(models: MessageModels, head: str, rules: SafetyRules) -> Detector:
    """One head as a detector; the injection head fires only on a message to the assistant."""
    threshold = getattr(rules.message_thresholds, head)
    name = f"{_DETECTORS[head]}.model.messages"

    def detect(text: str, rules: SafetyRules, prepared: Prepared | None) -> Verdict:
        prepared = prepared or rules.compiled.prepare(text)
        if len(prepared.words.split()) < rules.message_thresholds.min_words:
            return CLEAR
        bar = threshold
        if head == "injection" and not _addressed(prepared, rules):
            bar = max(threshold, rules.message_thresholds.injection_unaddressed)
        score = head_score(models, head, prepared)
        return Verdict.of([f"{name}:{score:.2f}"]) if _passes(score, bar) else CLEAR

    return detect


def _passes(score: float, threshold: float) -> bool:
    """A threshold of 1.0 or more turns the head off (a float sigmoid can round to 1.0)."""
    return threshold < 1.0 and score >= threshold


def _asks_for_help(prepared: Prepared, rules: SafetyRules) -> bool:
    """A request for help or a legal word ("help", "madad", "court", "शिकायत"): a question."""
    return any(p.help.search(p.fold(prepared.words)) for p in rules.compiled.reporting)


def _names_legal_matter(prepared: Prepared, rules: SafetyRules) -> bool:
    """A legal matter or a harm ("summon", "किराया", "maara"): never small talk for the head,
    even after a thanks."""
    legal = any(p.legal.search(p.fold(prepared.words)) for p in rules.compiled.reporting)
    return legal or names_harm(prepared, rules)


def _addressed(prepared: Prepared, rules: SafetyRules) -> bool:
    return not rules.compiled.addressed_words.isdisjoint(prepared.words.split())
