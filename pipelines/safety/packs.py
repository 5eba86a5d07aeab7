"""The per-language parts of the compiled rules that run on a block's own spelling fold.

- `Standalone`: a clause made only of one language's insult vocabulary, with at least one
  insult ("idiot!", "what a moron", "abe chutiye"), named `abuse.<lang>.bare_insult`;
- `Folded`: the abuse rules of the blocks that share one `spelling` fold, run on the folded
  clause (the blocks without a fold run together on the clause as it is);
- greetings: one regex per fold, over every block's entries folded alike;
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pipelines.safety.expand import (
    PLURAL_LISTS,
    alternation,
    block_fold,
    by_fold,
    checked,
    expand,
    named_patterns,
)
from pipelines.safety.first_words import WholeText
from pipelines.safety.matcher import NEVER, RuleMatcher
from pipelines.safety.normalize import words_of
from pipelines.safety.plan_words import entries
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.spelling import IDENTITY, Fold, fold_pattern, word_map

UNMASK_LISTS = ("slurs", "insults", "profanity")  # "f*ck" resolves in this order, then phrases
# words a clause may consist of to count as a bare insult ("you idiot!", "what a moron")
STANDALONE_LISTS = (
    "fillers", "second_person", "copulas", "assistant_nouns", "profanity", "interjections",
)  # fmt: skip


@dataclass(frozen=True)
class Standalone:
    """A clause made only of insult vocabulary, with at least one insult."""

    allowed: re.Pattern[str]
    insult: re.Pattern[str]
    language: str = "en"
    fold: Fold = IDENTITY
    look_alikes: re.Pattern[str] = re.compile(NEVER)  # "sale deed": an English word, no "saale"

    def fires(self, clause: str) -> bool:
        clause = self.fold(clause)
        return bool(self.insult.search(clause) and self.allowed.fullmatch(clause))

    def has_insult(self, clause: str) -> bool:
        clause = self.look_alikes.sub(" ", clause)
        return self.insult.search(self.fold(clause)) is not None


@dataclass(frozen=True)
class Folded:
    """The abuse rules of the language blocks that share one spelling fold."""

    fold: Fold
    abuse: RuleMatcher
    abuse_bare: RuleMatcher


def folded_abuse(abuse: Mapping[str, RuleSet]) -> tuple[Folded, ...]:
    return tuple(
        Folded(
            fold=fold,
            abuse=RuleMatcher(named_patterns("abuse", group), words=True),
            abuse_bare=RuleMatcher(
                named_patterns("abuse", group, part="bare_patterns"), words=True
            ),
        )
        for fold, group in by_fold(abuse).items()
        if fold.steps
    )


def standalone(language: str, block: RuleSet) -> Standalone:
    fold = block_fold(language, block)
    lists = {n: [fold(words_of(e)) for e in entries] for n, entries in block.lists.items()}
    allowed = [alternation(lists["insults"], plural=True)]
    allowed += [
        alternation(lists[n], plural=n in PLURAL_LISTS) for n in STANDALONE_LISTS if n in lists
    ]
    return Standalone(
        allowed=re.compile(rf"(?:(?:{'|'.join(allowed)})(?: |$))+"),
        insult=re.compile(rf"(?<!\S){allowed[0]}(?!\S)"),
        language=language,
        fold=fold,
        look_alikes=_look_alikes(block),
    )


def _look_alikes(block: RuleSet) -> re.Pattern[str]:
    """English phrases whose word folds onto an insult ("sale deed", not "saale")."""
    phrases = [words_of(entry) for entry in block.lists.get("insult_look_alikes", ())]
    return re.compile(rf"(?<!\S)(?:{alternation(phrases)})(?!\S)") if phrases else re.compile(NEVER)


def greetings(
    languages: Mapping[str, RuleSet], *, closings: bool = False
) -> tuple[tuple[Fold, WholeText], ...]:
    """One regex per spelling fold of the greeting blocks, over every block's entries folded
    alike, so "thanks bhai" and "namaskaar ji" are each read in one form. `closings`: the
    regex that also takes the closing remarks (a greeting block's `bare_patterns`, "i will go
    to the police tomorrow", "kal thane jaunga"), and holds at least one phrase ("thanks").
    The message's shorthand ("thx", "ur") is put for its words before each fold; the entries
    are not rewritten by it."""
    if closings and not any(block.bare_patterns for block in languages.values()):
        return ()
    said = word_map(
        {words_of(k): words_of(v) for b in languages.values() for k, v in b.shorthand.items()}
    )
    folds = _greeting_folds(languages)
    found = ((fold, _greeting(languages, fold, full=True, closings=closings)) for fold in folds)
    return tuple(
        (Fold(said.steps + fold.steps), WholeText.of(regex))
        for fold, regex in found
        if regex is not None
    )


def greeting_phrases(languages: Mapping[str, RuleSet]) -> tuple[tuple[Fold, re.Pattern[str]], ...]:
    """One regex per spelling fold that finds a greeting phrase anywhere (audit notes)."""
    folds = _greeting_folds(languages)
    found = ((fold, _greeting(languages, fold, full=False)) for fold in folds)
    return tuple((fold, regex) for fold, regex in found if regex is not None)


def _greeting_folds(languages: Mapping[str, RuleSet]) -> dict[Fold, None]:
    """No fold, then each greeting block's spelling fold, without repeats (in order)."""
    return {IDENTITY: None} | {block_fold(n, b): None for n, b in languages.items()}


def _greeting(
    languages: Mapping[str, RuleSet], fold: Fold, *, full: bool, closings: bool = False
) -> re.Pattern[str] | None:
    """full: the whole message, fillers and at least one phrase or pattern; else where a
    phrase occurs (an audit note on every question: the patterns are left out, for speed)."""
    phrases = alternation(fold(words_of(p)) for block in languages.values() for p in block.phrases)
    patterns = _greeting_patterns(languages, fold) if full else []
    if phrases == NEVER and not patterns:
        return None
    if not full:
        return re.compile(rf"(?<!\S){phrases}(?!\S)")
    core = f"(?:{'|'.join([phrases, *patterns])})"
    fillers = [fold(words_of(f)) for b in languages.values() for f in b.lists.get("fillers", ())]
    if closings:  # a phrase and a closing remark, in either order, with any other units
        said = "|".join(_greeting_patterns(languages, fold, part="bare_patterns"))
        unit = f"(?:{core}|{said}|{alternation(fillers)})(?: |$)"
        # each part compiled once: lookaheads find the phrase and the remark, units cover all
        one, other = f"(?:^|(?<= )){phrases}(?: |$)", f"(?:^|(?<= ))(?:{said})(?: |$)"
        return re.compile(rf"(?=.*?{one})(?=.*?{other})(?:{unit})*")
    unit = f"(?:{core}|{alternation(fillers)})(?: |$)"
    return re.compile(rf"(?:{alternation(fillers)} )*{core}(?: |$)(?:{unit})*")


def _greeting_patterns(
    languages: Mapping[str, RuleSet], fold: Fold, part: str = "patterns"
) -> list[str]:
    """Each block's small-talk patterns ("have a (nice|good) (day|evening)"), on one fold."""
    found = []
    for language, block in languages.items():
        patterns: Mapping[str, str] = getattr(block, part)
        for name, pattern in patterns.items():
            where = f"greeting.{language}.{name}"
            expanded = expand(fold_pattern(pattern, fold), block.lists, where, fold)
            found.append(f"(?:{checked(expanded, where, words=True)})")
    return found


def masked_lookup(abuse: Mapping[str, RuleSet]) -> dict[int, tuple[str, ...]]:
    """Lexicon words by length, to resolve masked letters ("f*ck", "b**ch")."""
    listed = [e for name in UNMASK_LISTS for e in entries(abuse, name)]
    listed += [e for block in abuse.values() for e in block.phrases]
    table: dict[int, list[str]] = {}
    for word in (w for e in listed for w in words_of(e).split()):
        if word not in table.setdefault(len(word), []):
            table[len(word)].append(word)
    return {length: tuple(words) for length, words in table.items()}
