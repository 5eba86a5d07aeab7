"""What the learned scorers (the insult and injection models, the toxicity scorer) are shown.

One place decides it, for the detectors and for bench/train_classifiers.py alike, so a model
is trained on the very input it is asked about:
- what a `spares` pattern matches (a negated or self-directed insult, "not an idiot", "like
  I'm an idiot", praise, a negated statement about "you") is cut out of its clause: the
  rules read it right, a bag of words does not; the rest of the clause stays;
- profanity words are left out, so swearing alone cannot tip a scorer;
- a condition that a later clause completes, and that clause ("if you are sick, you should
  tell your employer"), speak of anyone: they are left out of what the insult model sees,
  and address no one;
- the insult model and the toxicity scorer are asked only when a remaining clause addresses
  someone (you, the assistant) without opening as a request, and never about a message that
  is only a greeting ("top of the morning to you!");
- the injection model is asked about a message of at least `injection_model_min_words` words.
"""

from __future__ import annotations

import re

from pipelines.safety.greeting import detect_greeting, greeting_clause
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules

# English "ya" and "ye" (you) are Hinglish "or" and "this" ("property me haq hai ya nahi"):
# they aim a clause at the reader only in a clause without these Hinglish words
HINGLISH_HOMOGRAPHS = frozenset({"ya", "ye"})
HINGLISH_MARKERS = frozenset(
    {"hai", "hain", "ho", "ka", "ki", "ke", "ko", "me", "mein", "se", "nahi", "nhi", "kya"}
    | {"tha", "thi", "aur", "bhi", "wala", "wali"}
)


def spared(prepared: Prepared, rules: SafetyRules) -> list[str]:
    """The names of the spare patterns that match a clause."""
    return [
        name
        for name, pattern in rules.compiled.abuse_spares
        if any(pattern.search(clause) for clause in prepared.clauses)
    ]


def open_clauses(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...]:
    """The clauses with the spared spans and the profanity words cut out (empty ones dropped);
    worked out once per prepared text (the abuse rules and the insult model both ask)."""
    key = ("open_clauses", id(rules.compiled))
    found = prepared.memo.get(key)
    if not isinstance(found, tuple):
        found = prepared.memo[key] = _open_clauses(prepared, rules)
    return found


def _open_clauses(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...]:
    compiled = rules.compiled
    kept = []
    for clause in prepared.clauses:
        rest = _cut(clause, compiled.abuse_spares)
        words = [w for w in rest.split() if w not in compiled.profanity_words]
        if words:
            kept.append(" ".join(words))
    return tuple(kept)


def _cut(clause: str, patterns: tuple[tuple[str, re.Pattern[str]], ...]) -> str:
    """The clause with every span that any of the patterns matches blanked out."""
    spared = bytearray(len(clause))
    for _, pattern in patterns:
        for match in pattern.finditer(clause):
            spared[match.start() : match.end()] = b"\x01" * (match.end() - match.start())
    if not any(spared):
        return clause
    return "".join(" " if flag else char for char, flag in zip(clause, spared, strict=True))


def _generic(clauses: tuple[str, ...], rules: SafetyRules) -> set[int]:
    """The indexes of the conditions that a later clause completes, and of those clauses."""
    opener = rules.compiled.conditional_opener
    found: set[int] = set()
    for index, clause in enumerate(clauses[:-1]):
        if opener.match(clause):
            found.update((index, index + 1))
    return found


def addressed(clauses: tuple[str, ...], rules: SafetyRules) -> list[str]:
    """The clauses aimed at someone: a direction word, no request opener, not generic, and not
    a greeting on its own ("bless you", "thank you": a victim's report after them is not aimed
    at the reader)."""
    compiled = rules.compiled
    generic = _generic(clauses, rules)
    return [
        clause
        for index, clause in enumerate(clauses)
        if index not in generic
        and _aimed(clause.split(), rules)
        and not compiled.request_opener.match(clause)
        and not greeting_clause(clause, rules)
    ]


def holds_insult(clause: str, rules: SafetyRules) -> bool:
    """A word of some language's insult lexicon in the clause (on that language's fold)."""
    return any(rule.has_insult(clause) for rule in rules.compiled.standalone)


def greeting_only(prepared: Prepared, rules: SafetyRules) -> bool:
    return detect_greeting(prepared.raw, rules, prepared).flagged


def insult_model_input(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...] | None:
    """The clauses the insult model scores, or None when it is not asked."""
    clauses = open_clauses(prepared, rules)
    if not addressed(clauses, rules) or greeting_only(prepared, rules):
        return None
    generic = _generic(clauses, rules)
    return tuple(c for index, c in enumerate(clauses) if index not in generic)


def injection_model_input(prepared: Prepared, rules: SafetyRules) -> tuple[str, ...] | None:
    """The clauses the injection model scores, or None when the message is too short."""
    long_enough = prepared.words.count(" ") + 1 >= rules.injection_model_min_words
    return prepared.clauses if long_enough else None


def _aimed(words: list[str], rules: SafetyRules) -> bool:
    """A direction word in the clause; "ya" and "ye" only in a clause that is not Hinglish."""
    found = rules.compiled.direction_words.intersection(words)
    if found and found <= HINGLISH_HOMOGRAPHS:
        return HINGLISH_MARKERS.isdisjoint(words)
    return bool(found)
