"""Abuse: insults, threats and harassment aimed at someone, and slurs or hate whoever they target.

Profanity alone is not abuse. Every rule works on whole words of the normalised text, clause
by clause, so a rude substring ("Scunthorpe") or a sentence boundary never makes a match:
1. the configured phrases and patterns (slurs, harassment, insults with a target, threats, hate);
2. a clause made only of insult vocabulary ("idiot!", "what a moron", "you stupid bot");
3. only if no rule decided: the shipped insult model (a linear model over n-grams, trained
   by bench/train_classifiers.py), against `insult_model_threshold`;
4. then, if a scorer is plugged in: its probability, against `toxicity_threshold`, for the
   clauses aimed at someone, or the clauses holding an insult word in a short message that
   asks nothing.
What 3 and 4 are shown, and when they are asked at all, is pipelines/safety/learned.py's
decision: never a negated or self-directed insult or praise, never the profanity.
"""

from __future__ import annotations

from pipelines.safety.learned import (
    addressed,
    greeting_only,
    holds_insult,
    insult_model_input,
    open_clauses,
    spared,
)
from pipelines.safety.mentions import spare_quoted_mention
from pipelines.safety.message_models import AMBIGUOUS, head_score
from pipelines.safety.normalize import Prepared
from pipelines.safety.reported import spare_reported_speech
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import CLEAR, Verdict


def detect_abuse(text: str, rules: SafetyRules, prepared: Prepared | None = None) -> Verdict:
    verdict = _detect(text, rules, prepared)
    verdict = spare_quoted_mention(verdict, text, rules, _detect, "abuse")
    return spare_reported_speech(verdict, text, rules, _detect, prepared)


def _detect(text: str, rules: SafetyRules, prepared: Prepared | None) -> Verdict:
    compiled = rules.compiled
    prepared = prepared or compiled.prepare(text)
    reasons = [hit for clause in prepared.clauses for hit in compiled.abuse_hits(clause)]
    if not reasons and _asks_nothing(prepared, rules):
        reasons = [hit for c in prepared.clauses for hit in compiled.abuse_hits(c, bare=True)]
    if reasons:
        return Verdict.of(reasons)
    bare = _bare_insult(prepared, rules)
    if bare:
        return Verdict.of([f"abuse.{bare}.bare_insult"])
    clauses = open_clauses(prepared, rules)
    model, shown = rules.insult_model, insult_model_input(prepared, rules)
    if model is not None and shown is not None:
        score = model.probability(shown)
        if score >= rules.insult_model_threshold and not _friendly(prepared, rules):
            return Verdict.of([f"abuse.model:{score:.2f}"])
    verdict = _scored(prepared, rules, clauses)
    return (
        verdict
        if verdict.flagged
        else Verdict(flagged=False, reasons=tuple(spared(prepared, rules)))
    )


# a clause with this many Hinglish words is not the English toxicity scorer's to read
FOREIGN_WORDS = 2
FRIENDLY = 0.9  # the small-talk head this sure, and the insult head under AMBIGUOUS, overrule


def _friendly(prepared: Prepared, rules: SafetyRules) -> bool:
    """A blessing with no insult word ("god bless you and your whole team"), or the heads
    trained on legal-aid chat read a friendly message ("You're very helpful, you know that?",
    "my mother also says thank you"), which the insult model, trained on online comments,
    scores by its "you're" and "mother"."""
    models = rules.message_models
    blessed = rules.compiled.blessings.search(prepared.words) is not None  # "god bless you"
    if blessed and not any(holds_insult(clause, rules) for clause in prepared.clauses):
        return True
    return (
        models is not None
        and head_score(models, "social", prepared) >= FRIENDLY
        and head_score(models, "insult", prepared) < AMBIGUOUS
    )


def _asks_nothing(prepared: Prepared, rules: SafetyRules) -> bool:
    """A short message without a question mark: nothing in it needs an answer."""
    return (
        "?" not in prepared.flat and prepared.words.count(" ") < rules.standalone_insult_max_words
    )


def _bare_insult(prepared: Prepared, rules: SafetyRules) -> str | None:
    """The language of the first clause made only of insult vocabulary, if any."""
    for clause in prepared.clauses:
        if clause.count(" ") >= rules.standalone_insult_max_words:
            continue
        for rule in rules.compiled.standalone:
            if rule.fires(clause):
                return rule.language
    return None


def _scored(prepared: Prepared, rules: SafetyRules, clauses: tuple[str, ...]) -> Verdict:
    """Asks the scorer about the open clauses aimed at someone or, in a short message that asks
    nothing, the open clauses holding an insult word."""
    scorer = rules.toxicity_scorer
    if scorer is None or greeting_only(prepared, rules):
        return CLEAR
    suspects = addressed(clauses, rules)
    if not suspects and _asks_nothing(prepared, rules):
        suspects = [c for c in clauses if holds_insult(c, rules)]
    suspects = [clause for clause in suspects if _english(clause, rules)]
    if not suspects:
        return CLEAR
    score = scorer(" ".join(suspects))
    if score >= rules.toxicity_threshold:
        return Verdict.of([f"abuse.toxicity:{score:.2f}"])
    return CLEAR


def _english(clause: str, rules: SafetyRules) -> bool:
    """A clause the English scorer can read: an insult word of any lexicon ("ya fat ugly ho"),
    or fewer than `FOREIGN_WORDS` Hinglish words ("tum robot ho ya vakil" is the Hinglish
    rules' and the insult model's to judge)."""
    foreign = rules.compiled.not_english
    few = sum(word in foreign for word in clause.split()) < FOREIGN_WORDS
    return few or holds_insult(clause, rules)
