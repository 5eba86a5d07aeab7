"""Abuse: insults, threats and harassment aimed at someone, and slurs or hate whoever they target.

Profanity alone is not abuse. Every rule works on whole words of the normalised text, clause
by clause, so a rude substring ("Scunthorpe") or a sentence boundary never makes a match:
1. the configured phrases and patterns (slurs, harassment, insults with a target, threats, hate);
2. a clause made only of insult vocabulary ("idiot!", "what a moron", "you stupid bot");
3. only if no rule decided and no `spares` pattern (a negated or self-directed insult: "not
   an idiot", "like I'm an idiot") matched, for a message with a clause that addresses
   someone (you, the assistant) without opening as a request: the shipped insult model (a
   linear model over n-grams, trained by bench/train_classifiers.py) on the whole message,
   against `insult_model_threshold`;
4. then, if a scorer is plugged in: its probability, against `toxicity_threshold`, for those
   clauses, or the clauses holding an insult word in a short message that asks nothing. It
   sees them without profanity, so swearing alone cannot tip it.
"""

from __future__ import annotations

from pipelines.safety.mentions import spare_quoted_mention
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import CLEAR, Verdict


def detect_abuse(text: str, rules: SafetyRules, prepared: Prepared | None = None) -> Verdict:
    verdict = _detect(text, rules, prepared)
    return spare_quoted_mention(verdict, text, rules, _detect, "abuse")


def _detect(text: str, rules: SafetyRules, prepared: Prepared | None) -> Verdict:
    compiled = rules.compiled
    prepared = prepared or compiled.prepare(text)
    reasons = [hit for clause in prepared.clauses for hit in compiled.abuse.all(clause)]
    if not reasons and _asks_nothing(prepared, rules):
        reasons = [hit for clause in prepared.clauses for hit in compiled.abuse_bare.all(clause)]
    if reasons:
        return Verdict.of(reasons)
    if _bare_insult(prepared, rules):
        return Verdict.of(["abuse.bare_insult"])
    spared = [hit for clause in prepared.clauses for hit in compiled.abuse_spares.all(clause)]
    if spared:  # a negated or self-directed insult: the learned scorers would misread it
        return Verdict(flagged=False, reasons=tuple(dict.fromkeys(spared)))
    suspects = addressed_clauses(prepared, rules)
    model = rules.insult_model
    if model is not None and suspects:
        score = model.probability(prepared.clauses)
        if score >= rules.insult_model_threshold:
            return Verdict.of([f"abuse.model:{score:.2f}"])
    return _scored(prepared, rules, suspects)


def addressed_clauses(prepared: Prepared, rules: SafetyRules) -> list[str]:
    """The clauses aimed at someone (a direction word), unless they open as a request."""
    compiled = rules.compiled
    return [
        clause
        for clause in prepared.clauses
        if not compiled.direction_words.isdisjoint(clause.split())
        and not compiled.request_opener.match(clause)
    ]


def _asks_nothing(prepared: Prepared, rules: SafetyRules) -> bool:
    """A short message without a question mark: nothing in it needs an answer."""
    return (
        "?" not in prepared.flat and prepared.words.count(" ") < rules.standalone_insult_max_words
    )


def _bare_insult(prepared: Prepared, rules: SafetyRules) -> bool:
    for clause in prepared.clauses:
        if clause.count(" ") >= rules.standalone_insult_max_words:
            continue
        for rule in rules.compiled.standalone:
            if rule.insult.search(clause) and rule.allowed.fullmatch(clause):
                return True
    return False


def _scored(prepared: Prepared, rules: SafetyRules, suspects: list[str]) -> Verdict:
    """Asks the scorer about the clauses aimed at someone, unless they open as a request."""
    scorer, compiled = rules.toxicity_scorer, rules.compiled
    if scorer is None:
        return CLEAR
    if not suspects and _asks_nothing(prepared, rules):
        suspects = [
            c for c in prepared.clauses if any(r.insult.search(c) for r in compiled.standalone)
        ]
    words = [w for clause in suspects for w in clause.split() if w not in compiled.profanity_words]
    if not words:
        return CLEAR
    score = scorer(" ".join(words))
    if score >= rules.toxicity_threshold:
        return Verdict.of([f"abuse.toxicity:{score:.2f}"])
    return CLEAR
