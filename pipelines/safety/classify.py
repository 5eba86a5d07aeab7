"""classify_message: the pure route decision (abusive, greeting or question) with its reasons.

Order: abuse, then injection (either makes the message "abusive"; abuse is the commoner reject
and the cheaper check, so an insult is refused without the injection decoders), then greeting;
then the message models (pipelines/safety/second_look.py) on a message no rule decided or
looked at closely (on praise the abuse rules spared, the small-talk head alone); anything else
is a question. A message the abuse rules looked at closely (a quoted mention, reported speech)
is never a greeting; praise they spared ("you are the best, thanks") may be. The text is
normalised once and shared by the detectors.
"""

from __future__ import annotations

from pipelines.safety.abuse import detect_abuse
from pipelines.safety.distress import distress_reason
from pipelines.safety.greeting import detect_greeting, mentions_greeting
from pipelines.safety.injection import detect_injection
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.second_look import second_look
from pipelines.state import Classification

__all__ = ["Classification", "classify_message"]

# praise and negations the abuse rules read ("you are the best, thanks"): they leave a message
# made only of greeting phrases a greeting; a quoted mention or reported speech never does
SPARED = "abuse.spared."


def classify_message(text: str, rules: SafetyRules) -> Classification:
    prepared = rules.compiled.prepare(text)
    notes: list[str] = []  # rules that looked but did not fire (a quoted mention)
    for detect in (detect_abuse, detect_injection):
        verdict = detect(text, rules, prepared)
        if verdict.flagged:
            return Classification("abusive", verdict.reasons)
        notes += verdict.reasons
    spared_only = all(note.startswith(SPARED) for note in notes)
    greeting = detect_greeting(text, rules, prepared)
    if greeting.flagged and spared_only:
        return _unless_distress(Classification("greeting", greeting.reasons), prepared, rules)
    if rules.message_models is not None and spared_only:
        # the insult and injection heads read only what the rules left alone
        second = second_look(text, prepared, rules, judge=not notes)
        if second is not None:
            return _unless_distress(second, prepared, rules)
    if mentions_greeting(text, rules, prepared):
        notes.insert(0, "question.greeting_with_content")
    return Classification("question", tuple(notes) or ("question",))


def _unless_distress(
    decided: Classification, prepared: Prepared, rules: SafetyRules
) -> Classification:
    """A greeting naming self-harm or a harm done is a question (safety/distress.py)."""
    reason = distress_reason(prepared, rules) if decided.query_type == "greeting" else None
    return Classification("question", (reason,)) if reason else decided
