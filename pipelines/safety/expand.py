"""Configured entries and patterns turned into regexes over the word form.

A pattern may name a list of its own language block as `{list}`: it becomes a whole-word
alternation of the list's entries, with an optional plural ending for the noun lists in
PLURAL_LISTS. `{!list}` asserts that no entry of the list comes right before. A block with a
`spelling` fold has its entries, phrases and the literal words of its patterns folded too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from pipelines.safety.matcher import NEVER, trie_regex
from pipelines.safety.normalize import words_of
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.spelling import IDENTITY, Fold, fold_of, fold_pattern

PLURAL_LISTS = frozenset({"insults", "slurs", "assistant_nouns", "person_nouns", "dehumanizing"})
_TEMPLATE = re.compile(r"\{(!?)([a-z_]+)\}")


def alternation(entries: Iterable[str], *, plural: bool = False) -> str:
    """List entries in word form as one regex, with an optional plural ending."""
    body = trie_regex({words_of(e) for e in entries} - {""})
    return body + "(?:s|es)?" if plural and body != NEVER else body


def block_fold(language: str, block: RuleSet) -> Fold:
    return fold_of(block.spelling, language) if block.spelling else IDENTITY


def by_fold(languages: Mapping[str, RuleSet]) -> dict[Fold, dict[str, RuleSet]]:
    """The language blocks grouped by their spelling fold (IDENTITY: no fold)."""
    groups: dict[Fold, dict[str, RuleSet]] = {}
    for language, block in languages.items():
        groups.setdefault(block_fold(language, block), {})[language] = block
    return groups


def named_patterns(
    detector: str, languages: Mapping[str, RuleSet], *, part: str = "patterns"
) -> list[tuple[str, str]]:
    """The named regexes of one part of every language block (patterns come with phrases)."""
    named: list[tuple[str, str]] = []
    for language, block in languages.items():
        fold = block_fold(language, block)
        if block.phrases and part == "patterns":
            phrases = [fold(words_of(p)) for p in block.phrases]
            named.append((f"{detector}.{language}.phrase", alternation(phrases)))
        patterns: Mapping[str, str] = getattr(block, part)
        for name, pattern in patterns.items():
            where = f"{detector}.{language}.{name}"
            expanded = expand(fold_pattern(pattern, fold), block.lists, where, fold)
            named.append((where, checked(expanded, where, words=True)))
    return named


def expand(
    pattern: str, lists: Mapping[str, tuple[str, ...]], where: str, fold: Fold = IDENTITY
) -> str:
    """`{name}`: any entry of the list; `{!name}`: not right after an entry of the list."""

    def expand_one(match: re.Match[str]) -> str:
        negated, name = match.groups()
        if name not in lists:
            raise ValueError(f"{where}: unknown list {{{negated}{name}}}")
        entries = sorted({fold(words_of(e)) for e in lists[name]} - {""})
        if negated:
            return "".join(rf"(?<!\b{re.escape(e)} )" for e in entries)
        return alternation(entries, plural=name in PLURAL_LISTS)

    return _TEMPLATE.sub(expand_one, pattern)


def checked(pattern: str, where: str, *, words: bool) -> str:
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
