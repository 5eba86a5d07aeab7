"""Greetings: a short message made only of greeting or small-talk phrases and filler words.

Phrases are fixed ("good morning", "dhanyavaad"); a language block's greeting `patterns` build
small talk from parts ("have a (nice|good) (evening|weekend)", "aap kaun ho"). At least one
phrase or pattern must occur: fillers alone ("ok", "sir") are not a greeting.

A block's `bare_patterns` are closing remarks that count only next to a greeting phrase, in a
message without a "?": "thanks, i will go to the police station tomorrow", "ok ji thank you,
kal thane jaunga" close a conversation; "i will go to the police station tomorrow" alone may
still want an answer.

Anything else is a question: one content word beyond the greeting vocabulary ("hi, what is the
notice period?"), a digit, or more than `greeting_max_chars` / `greeting_max_words` is enough.
A question must never be short-circuited, so every doubt goes to the question route.

A message made only of the configured `emoji` ("🙏", "👍👍", "😊🙏") is a greeting too; an
acknowledgement with a `followups` word and a "?" ("ok so?", "acha phir?") is not.
"""

from __future__ import annotations

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import CLEAR, Verdict

GREETING = Verdict(flagged=True, reasons=("greeting",))
# joiners, variation selectors and skin tones that ride along with an emoji
_EMOJI_PARTS = str.maketrans(
    "", "", "\u200d\ufe0f\ufe0e\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"
)


def detect_greeting(text: str, rules: SafetyRules, prepared: Prepared | None = None) -> Verdict:
    if prepared is None or text != prepared.raw:
        return _detect(text, rules, prepared)
    key = ("greeting", id(rules))  # the abuse rules and the route ask about the same text
    found = prepared.memo.get(key)
    if not isinstance(found, Verdict):
        found = prepared.memo[key] = _detect(text, rules, prepared)
    return found


def _detect(text: str, rules: SafetyRules, prepared: Prepared | None) -> Verdict:
    compiled = rules.compiled
    chars = len(text.strip())
    if not compiled.greeting_full or chars > _longest(rules):
        return CLEAR
    words = (prepared or compiled.prepare(text)).words
    if not words and _only_emoji(text, compiled.greeting_emoji):
        return GREETING
    if asks_what_next(text, words, rules):
        return CLEAR  # "ok so?", "acha phir?": what comes next is a question
    return GREETING if _greets(words, chars, "?" in text, rules) else CLEAR


def greeting_clause(clause: str, rules: SafetyRules) -> bool:
    """Whether a clause of a prepared text (word form, no punctuation) is a greeting on its
    own; the clause is not prepared again."""
    if not rules.compiled.greeting_full or len(clause) > _longest(rules):
        return False
    return _greets(clause, len(clause), False, rules)


def _longest(rules: SafetyRules) -> int:
    return max(rules.greeting_max_chars, rules.greeting_closing_max_chars)


def _greets(words: str, chars: int, asks: bool, rules: SafetyRules) -> bool:
    """The word form is greeting phrases and fillers (or, without a "?", closing remarks)."""
    compiled = rules.compiled
    gaps = words.count(" ")
    if not words or gaps >= max(rules.greeting_max_words, rules.greeting_closing_max_words):
        return False
    if chars <= rules.greeting_max_chars and gaps < rules.greeting_max_words:
        for fold, full in compiled.greeting_full:
            if full.fullmatch(fold(words)):  # holds a phrase or pattern, not fillers alone
                return True
    if asks:
        return False
    # a phrase, closing remarks and fillers
    return any(closing.fullmatch(fold(words)) for fold, closing in compiled.greeting_closing)


def mentions_greeting(text: str, rules: SafetyRules, prepared: Prepared | None = None) -> bool:
    """Whether a greeting phrase occurs at all (for audit reasons on the question route)."""
    compiled = rules.compiled
    words = (prepared or compiled.prepare(text)).words
    return any(phrase.search(fold(words)) for fold, phrase in compiled.greeting_any)


def _only_emoji(text: str, emoji: frozenset[str]) -> bool:
    shown = "".join(text.split()).translate(_EMOJI_PARTS)
    return bool(shown) and all(c in emoji for c in shown)


def asks_what_next(text: str, words: str, rules: SafetyRules) -> bool:
    """A "?" after a last word such as "so", "phir", "अब": "ok so?", "acha phir?"; not a
    question to the assistant about itself ("what are you doing now?")."""
    compiled = rules.compiled
    said = words.split()
    return (
        "?" in text
        and bool(said)
        and said[-1] in compiled.greeting_followups
        and compiled.addressed_words.isdisjoint(said)
    )
