"""The regexes and vocabularies of one SafetyRules instance, built once (SafetyRules.compiled).

A pattern may name a list of its own language block as `{list}`: it becomes a whole-word
alternation of the list's entries, with an optional plural ending for the noun lists in
PLURAL_LISTS. `{!list}` asserts that no entry of the list comes right before.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pipelines.safety.matcher import NEVER, RuleMatcher, trie_regex
from pipelines.safety.normalize import Prepared, prepare, words_of
from pipelines.safety.ruleset import RuleSet

PLURAL_LISTS = frozenset({"insults", "slurs", "assistant_nouns", "person_nouns", "dehumanizing"})
# words a clause may consist of to count as a bare insult ("you idiot!", "what a moron")
STANDALONE_LISTS = (
    "fillers", "second_person", "copulas", "assistant_nouns", "profanity", "interjections",
)  # fmt: skip
DIRECTION_LISTS = ("second_person", "assistant_nouns")  # who a scorer-worthy clause addresses
UNMASK_LISTS = ("slurs", "insults", "profanity")  # "f*ck" resolves in this order, then phrases
_TEMPLATE = re.compile(r"\{(!?)([a-z_]+)\}")


@dataclass(frozen=True)
class Standalone:
    """A clause made only of insult vocabulary, with at least one insult."""

    allowed: re.Pattern[str]
    insult: re.Pattern[str]


@dataclass(frozen=True)
class CompiledRules:
    vocab: frozenset[str]
    by_length: Mapping[int, tuple[str, ...]]
    abuse: RuleMatcher
    abuse_bare: RuleMatcher
    abuse_spares: tuple[tuple[str, re.Pattern[str]], ...]  # (name, regex): spans to cut out
    standalone: tuple[Standalone, ...]
    direction_words: frozenset[str]
    request_opener: re.Pattern[str]
    conditional_opener: re.Pattern[str]
    profanity_words: frozenset[str]
    injection: RuleMatcher
    injection_signals: RuleMatcher
    indirect: RuleMatcher
    document: RuleMatcher  # flat patterns for uploaded documents only
    decode_cues: frozenset[str]  # words that make ROT13, reversed or split text worth reading
    greeting_full: re.Pattern[str] | None
    greeting_any: re.Pattern[str] | None
    mention_cues: frozenset[str]

    def prepare(self, text: str) -> Prepared:
        return prepare(text, self.vocab, self.by_length)


def compile_rules(
    abuse: Mapping[str, RuleSet],
    injection: Mapping[str, RuleSet],
    greeting: Mapping[str, RuleSet],
    indirect: Mapping[str, str],
    mention_cues: Iterable[str],
    document: Mapping[str, str] | None = None,
) -> CompiledRules:
    """The regexes and vocabularies of a SafetyRules' sections (`SafetyRules.compiled`)."""
    flat = [(f"injection.indirect.{n}", _checked(p, n, words=False)) for n, p in indirect.items()]
    in_documents = [
        (f"injection.document.{n}", _checked(p, n, words=False))
        for n, p in (document or {}).items()
    ]
    return CompiledRules(
        vocab=frozenset(_vocabulary(abuse, greeting)),
        by_length=_by_length(abuse),
        abuse=RuleMatcher(_named("abuse", abuse), words=True),
        abuse_bare=RuleMatcher(_named("abuse", abuse, part="bare_patterns"), words=True),
        abuse_spares=tuple(
            (name, re.compile(regex))
            for name, regex in _named("abuse.spared", abuse, part="spares")
        ),
        standalone=tuple(
            _standalone(block) for block in abuse.values() if "insults" in block.lists
        ),
        direction_words=_single_words(abuse, DIRECTION_LISTS),
        request_opener=_opener(abuse, "request_openers"),
        conditional_opener=_opener(abuse, "conditional_openers"),
        profanity_words=_single_words(abuse, ("profanity",)),
        injection=RuleMatcher(_named("injection", injection), words=True),
        injection_signals=RuleMatcher(_named("signal", injection, part="signals"), words=True),
        indirect=RuleMatcher(flat, words=False, flags=re.MULTILINE),
        document=RuleMatcher(in_documents, words=False, flags=re.MULTILINE),
        decode_cues=_single_words(injection, ("decode_cues",)),
        greeting_full=_greeting(greeting, full=True),
        greeting_any=_greeting(greeting, full=False),
        mention_cues=frozenset(w for cue in mention_cues for w in words_of(cue).split()),
    )


def _opener(languages: Mapping[str, RuleSet], name: str) -> re.Pattern[str]:
    return re.compile(alternation(_entries(languages, name)) + r"(?!\S)")


def alternation(entries: Iterable[str], *, plural: bool = False) -> str:
    """List entries in word form as one regex, with an optional plural ending."""
    body = trie_regex({words_of(e) for e in entries} - {""})
    return body + "(?:s|es)?" if plural and body != NEVER else body


def _named(
    detector: str, languages: Mapping[str, RuleSet], *, part: str = "patterns"
) -> list[tuple[str, str]]:
    """The named regexes of one part of every language block (patterns come with phrases)."""
    named: list[tuple[str, str]] = []
    for language, block in languages.items():
        if block.phrases and part == "patterns":
            named.append((f"{detector}.{language}.phrase", alternation(block.phrases)))
        patterns: Mapping[str, str] = getattr(block, part)
        for name, pattern in patterns.items():
            where = f"{detector}.{language}.{name}"
            named.append((where, _checked(_expand(pattern, block.lists, where), where, words=True)))
    return named


def _expand(pattern: str, lists: Mapping[str, tuple[str, ...]], where: str) -> str:
    """`{name}`: any entry of the list; `{!name}`: not right after an entry of the list."""

    def expand(match: re.Match[str]) -> str:
        negated, name = match.groups()
        if name not in lists:
            raise ValueError(f"{where}: unknown list {{{negated}{name}}}")
        if negated:
            entries = sorted({words_of(e) for e in lists[name]} - {""})
            return "".join(rf"(?<!\b{re.escape(e)} )" for e in entries)
        return alternation(lists[name], plural=name in PLURAL_LISTS)

    return _TEMPLATE.sub(expand, pattern)


def _checked(pattern: str, where: str, *, words: bool) -> str:
    """Accents stripped; no group names or back-references (patterns are combined)."""
    pattern = "".join(
        c for c in unicodedata.normalize("NFKD", pattern) if not unicodedata.combining(c)
    )
    bare = re.sub(r"\\.", "", pattern)
    if "(?P" in pattern or re.search(r"\\[1-9]", pattern):
        raise ValueError(f"{where}: named groups and back-references are not allowed")
    if words and (bare != bare.lower() or "'" in bare):
        raise ValueError(f"{where}: word patterns are lowercase, without apostrophes")
    if not words:  # word patterns are compiled, and errors named, by RuleMatcher
        try:
            re.compile(pattern)
        except re.error as error:
            raise ValueError(f"{where}: invalid regex: {error}") from None
    return pattern


def _standalone(block: RuleSet) -> Standalone:
    lists = block.lists
    allowed = [alternation(lists["insults"], plural=True)]
    allowed += [
        alternation(lists[n], plural=n in PLURAL_LISTS) for n in STANDALONE_LISTS if n in lists
    ]
    return Standalone(
        allowed=re.compile(rf"(?:(?:{'|'.join(allowed)})(?: |$))+"),
        insult=re.compile(rf"(?<!\S){allowed[0]}(?!\S)"),
    )


def _entries(languages: Mapping[str, RuleSet], name: str) -> list[str]:
    return [entry for block in languages.values() for entry in block.lists.get(name, ())]


def _single_words(languages: Mapping[str, RuleSet], names: Iterable[str]) -> frozenset[str]:
    return frozenset(
        w for block in languages.values() for n in names for e in block.lists.get(n, ())
        if " " not in (w := words_of(e))
    )  # fmt: skip


def _vocabulary(*detectors: Mapping[str, RuleSet]) -> set[str]:
    entries = [e for d in detectors for b in d.values() for v in b.lists.values() for e in v]
    entries += [e for d in detectors for b in d.values() for e in b.phrases]
    return {w for e in entries for w in words_of(e).split()}


def _by_length(abuse: Mapping[str, RuleSet]) -> dict[int, tuple[str, ...]]:
    """Lexicon words by length, to resolve masked letters ("f*ck", "b**ch")."""
    entries = [e for name in UNMASK_LISTS for e in _entries(abuse, name)]
    entries += [e for block in abuse.values() for e in block.phrases]
    table: dict[int, list[str]] = {}
    for word in (w for e in entries for w in words_of(e).split()):
        if word not in table.setdefault(len(word), []):
            table[len(word)].append(word)
    return {length: tuple(words) for length, words in table.items()}


def _greeting(languages: Mapping[str, RuleSet], *, full: bool) -> re.Pattern[str] | None:
    phrases = alternation(p for block in languages.values() for p in block.phrases)
    if phrases == NEVER:
        return None
    if not full:
        return re.compile(rf"(?<!\S){phrases}(?!\S)")
    fillers = alternation(f for b in languages.values() for f in b.lists.get("fillers", ()))
    return re.compile(rf"(?:(?:{phrases}|{fillers})(?: |$))+")
