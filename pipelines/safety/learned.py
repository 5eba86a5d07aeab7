"""What the learned scorers (the insult and injection models, the toxicity scorer) are shown.

One place decides it, for the detectors and for bench/train_classifiers.py alike, so a model
is trained on the very input it is asked about:
- a clause where a `spares` pattern matches (a negated or self-directed insult, "not an
  idiot", "like I'm an idiot") is left out: the rules read it right, a bag of words does not;
- profanity words are left out, so swearing alone cannot tip a scorer;
- the insult model and the toxicity scorer are asked only when a remaining clause addresses
  someone (you, the assistant) without opening as a request, or as a condition that another
  clause completes ("if you are sick, ..."): that "you" is anyone;
- the injection model is asked about a message of at least `injection_model_min_words` words.
"""

from __future__ import annotations

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules


def spared(prepared: Prepared, rules: SafetyRules) -> list[str]:
    """The names of the spare patterns that match a clause."""
    matcher = rules.compiled.abuse_spares
    return list(dict.fromkeys(hit for clause in prepared.clauses for hit in matcher.all(clause)))


def open_clauses(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...]:
    """The clauses no spare pattern matched, without profanity words (empty ones dropped)."""
    compiled = rules.compiled
    kept = []
    for clause in prepared.clauses:
        if compiled.abuse_spares.all(clause):
            continue
        words = [w for w in clause.split() if w not in compiled.profanity_words]
        if words:
            kept.append(" ".join(words))
    return tuple(kept)


def addressed(clauses: tuple[str, ...], rules: SafetyRules) -> list[str]:
    """The clauses aimed at someone: a direction word, no request opener, and no conditional
    opener unless the clause ends the message (then nothing else completes the condition)."""
    compiled = rules.compiled
    last = len(clauses) - 1
    return [
        clause
        for index, clause in enumerate(clauses)
        if not compiled.direction_words.isdisjoint(clause.split())
        and not compiled.request_opener.match(clause)
        and not (index < last and compiled.conditional_opener.match(clause))
    ]


def insult_model_input(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...] | None:
    """The clauses the insult model scores, or None when it is not asked."""
    clauses = open_clauses(prepared, rules)
    return clauses if addressed(clauses, rules) else None


def injection_model_input(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...] | None:
    """The clauses the injection model scores, or None when the message is too short."""
    long_enough = prepared.words.count(" ") + 1 >= rules.injection_model_min_words
    return prepared.clauses if long_enough else None
