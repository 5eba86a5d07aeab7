"""thanks_asks: what beside a thanks asks, a request or a question word outside what the
writer now knows ("thanks. how long will it take"; not "thanks, now I know what to do") (pure).
"""

from __future__ import annotations

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules

# a question word inside a statement ends its clause within this many words after its subject
# ("I understand what a zero FIR is"; not "let you know how it goes with the loan sharks")
EMBEDDED_MAX_WORDS = 4


def asks_beside_thanks(prepared: Prepared, rules: SafetyRules, for_head: bool = False) -> bool:
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
    if for_head:
        return not compiled.question_words.isdisjoint(said.split())
    for clause in prepared.clauses:
        words = _unsaid(clause, rules).split()
        for index, word in enumerate(words):
            if word in compiled.question_words and not _embedded(words, index, rules):
                return True
    return False


def _unsaid(clause: str, rules: SafetyRules) -> str:
    """The clause without its thanks idioms and known asks ("now I know [what to do]")."""
    compiled = rules.compiled
    return compiled.known_asks.sub(" ", compiled.thanks_idioms.sub(" ", clause))


def _embedded(words: list[str], index: int, rules: SafetyRules) -> bool:
    """A question word inside a statement: after "understand", "know", "than", "me"... and
    before "it" or "a" (`embedded_subjects`), near the clause's end ("I understand what a zero
    FIR is", "let you know how it goes"); "what my husband did" is news."""
    compiled = rules.compiled
    return (
        0 < index < len(words) - 1
        and len(words) - index - 2 <= EMBEDDED_MAX_WORDS
        and words[index - 1] in compiled.embedded_after
        and words[index + 1] in compiled.embedded_subjects
    )
