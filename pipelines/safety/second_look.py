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

from pipelines.safety.greeting import asks_what_next
from pipelines.safety.learned import holds_insult
from pipelines.safety.matters import asks_for_help, names_legal_matter
from pipelines.safety.mentions import Detector, spare_quoted_mention
from pipelines.safety.message_models import AMBIGUOUS, MessageModels, head_score
from pipelines.safety.normalize import Prepared
from pipelines.safety.remarks import chitchat_remark
from pipelines.safety.reported import spare_reported_speech
from pipelines.safety.rules import SafetyRules
from pipelines.safety.thanks_asks import asks_beside_thanks
from pipelines.safety.thanks_closure import thanks_closure
from pipelines.safety.thanks_news import bad_news
from pipelines.safety.thanks_plans import risky_future, untold_plan
from pipelines.safety.verdict import CLEAR, Verdict
from pipelines.state import Classification

_DETECTORS = {"insult": "abuse", "injection": "injection"}
THANKS_WITH_CONTENT = 6  # a longer thanks needs message_social_thanks_threshold
# a letter of a script the heads were not trained on (Latin and Devanagari only): the
# small-talk head scored a Chinese jailbreak as small talk out of fold, so it does not read them
_UNTRAINED_LETTER = re.compile(r"[^\W\d_a-z\u00c0-\u024f\u0900-\u097f]")


def second_look(
    text: str, prepared: Prepared, rules: SafetyRules, judge: bool = True
) -> Classification | None:
    """The route with the head's reason ("abusive", "greeting"), or None: a question. Without
    `judge` (praise or a blessing the abuse rules spared), only the small-talk head reads."""
    models, limits = rules.message_models, rules.message_thresholds
    words = prepared.words.split()
    if models is None or not words or len(words) > limits.max_words:
        return None
    for head, detector in _DETECTORS.items() if judge else ():
        detect = _head(models, head, rules)
        verdict = detect(text, rules, prepared)
        verdict = spare_quoted_mention(verdict, text, rules, detect, detector)
        verdict = spare_reported_speech(verdict, text, rules, detect, prepared)
        if verdict.flagged:
            return Classification("abusive", verdict.reasons)
    social = _small_talk_score(text, prepared, rules, len(words))
    if social is not None:
        return Classification("greeting", (f"greeting.model.messages:{social:.2f}",))
    if thanks_closure(text, prepared, rules, len(words)):
        return Classification("greeting", ("greeting.thanks_closure",))
    if chitchat_remark(text, prepared, rules):
        return Classification("greeting", ("greeting.remark",))
    return None


def _small_talk_score(
    text: str, prepared: Prepared, rules: SafetyRules, words: int
) -> float | None:
    """The small-talk head's score when it greets the message, else None; the cheap vetoes
    are asked first (most messages are too long to be small talk)."""
    models, limits = rules.message_models, rules.message_thresholds
    if (
        models is None
        or not limits.social_min_words <= words <= limits.social_max_words
        or _UNTRAINED_LETTER.search(prepared.flat)
        or asks_what_next(text, prepared.words, rules)
    ):
        return None
    # greeting a question costs the user its answer: it must ask the assistant, and score higher
    asks = "?" in text
    bar = max(limits.social, limits.social_question) if asks else limits.social
    thanks, helps = _thanks(prepared, rules), asks_for_help(prepared, rules)
    asks_anything = _asks_anything(prepared, rules, asks)
    longer_thanks = thanks and (words > THANKS_WITH_CONTENT or helps)
    if longer_thanks:
        bar = max(bar, limits.social_thanks)
    if asks_anything and not _addressed(prepared, rules):
        bar = max(bar, limits.social_unaddressed)  # "raat ko sote ho kya": no "you" in it
    if (
        not (longer_thanks and asks_anything)  # "thank you. how much will a lawyer cost?"
        and not _asks_for_more(prepared, rules, thanks)  # "explain more", "thanks, elaborate"
        and _passes(social := head_score(models, "social", prepared), bar)
        and head_score(models, "insult", prepared) < AMBIGUOUS  # it half believes an insult
        and (thanks or not helps)  # "thanks, I will see a lawyer": a thanks may name the help
        and not (thanks and asks_beside_thanks(prepared, rules, for_head=True))
        and not (thanks and untold_plan(prepared, rules))  # "thanks, will pay the ransom"
        and not risky_future(prepared, rules)  # "ok, kal uske saath hotel jaungi"
        and not (thanks and bad_news(prepared.clauses, rules.compiled.thanks_news))
        and not any(holds_insult(c, rules) for c in prepared.clauses)  # "शुक्रिया गधे"
        and not names_legal_matter(prepared, rules)  # "thanks, summon aaya hai": a new problem
    ):
        return social
    return None


def _asks_anything(prepared: Prepared, rules: SafetyRules, asks: bool) -> bool:
    return asks or not rules.compiled.question_words.isdisjoint(prepared.words.split())


def _thanks(prepared: Prepared, rules: SafetyRules) -> bool:
    """A thanks word. A thanks followed by more words, or naming help or a legal matter, may
    state a new problem ("thank you, I was arrested last night"), which a bag of n-grams can
    read as the thanks, so the head must be surer (`social_thanks`)."""
    return not rules.compiled.thanks_words.isdisjoint(prepared.words.split())


def _asks_for_more(prepared: Prepared, rules: SafetyRules, thanks: bool) -> bool:
    """More of the answer asked for ("explain more pls"); beside a thanks, only a clause that
    opens with it ("thanks, elaborate"): "thank you, I will explain all this to my mother" and
    "itna detail me kisi ne nahi bataya tha, thank you" tell, they do not ask."""
    more = rules.compiled.more_asks
    if thanks:
        return any(more.match(clause) for clause in prepared.clauses)
    return bool(more.search(prepared.words))


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


def _addressed(prepared: Prepared, rules: SafetyRules) -> bool:
    return not rules.compiled.addressed_words.isdisjoint(prepared.words.split())
