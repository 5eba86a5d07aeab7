"""RuleMatcher: named regexes run together; word patterns are tried only where they can start.

Word patterns see the word form (single spaces between words) and always match whole words.
One regex of every possible first word finds where any pattern can start, and only the
patterns starting with that word are tried there (see first_words): the cost grows with the
message, not with the number of patterns times its length. Word patterns that all need a
non-ASCII character are not tried on ASCII text. Flat patterns are searched one by one,
each only in text that holds a literal its every match contains (flat_patterns).
"""

from __future__ import annotations

import re

from pipelines.safety.first_words import first_words
from pipelines.safety.flat_patterns import FlatPatterns
from pipelines.safety.required_literals import required_literals
from pipelines.safety.trie import NEVER, trie_regex

__all__ = ["NEVER", "RuleMatcher", "trie_regex"]

_CACHED_WORDS = 4096  # words whose candidates are kept (prefix matches are unbounded)


class RuleMatcher:
    """Named regexes; `all` names the rules that match, in configuration order."""

    def __init__(self, named: list[tuple[str, str]], *, words: bool, flags: int = 0) -> None:
        self.names = [name for name, _ in named]
        self.words = words
        if not words:  # each searched on its own: faster than one alternation of them all
            self.flat = FlatPatterns([_compiled(name, regex, flags) for name, regex in named])
            return
        self.patterns = [_compiled(name, rf"(?:{regex})(?!\S)", flags) for name, regex in named]
        # a pack in another script (Devanagari) has nothing to find in ASCII text
        self.skips_ascii = bool(named) and all(
            required_literals(regex, flags).non_ascii for _, regex in named
        )
        self.by_word: dict[str, list[int]] = {}
        self.by_prefix: dict[str, list[int]] = {}  # a word starting with the key may match
        self.anywhere: list[int] = []  # first word unknown: searched at every word
        for index, (_, regex) in enumerate(named):
            starts = first_words(regex)
            if starts is None:
                self.anywhere.append(index)
                continue
            for word in starts.exact:
                self.by_word.setdefault(word, []).append(index)
            for prefix in starts.prefixes:
                self.by_prefix.setdefault(prefix, []).append(index)
        self.longest_prefix = max(map(len, self.by_prefix), default=0)
        exact = trie_regex(self.by_word)
        prefixes = trie_regex(self.by_prefix)
        self.starts = re.compile(rf"(?<!\S)(?:{exact}(?!\S)|{prefixes}\S*)")
        self.searched = {i: re.compile(rf"(?<!\S)(?:{named[i][1]})(?!\S)") for i in self.anywhere}
        self.tried: dict[str, tuple[int, ...]] = {}  # word -> _candidates(word)

    def all(self, text: str) -> list[str]:
        if not self.words:
            return [self.names[index] for index in self.flat.matching(text)]
        if self.skips_ascii and text.isascii():
            return []
        hits = {i for i, pattern in self.searched.items() if pattern.search(text)}
        for start in self.starts.finditer(text):
            position = start.start()
            for index in self._tried_at(start.group()):
                if index not in hits and self.patterns[index].match(text, position):
                    hits.add(index)
        return [self.names[index] for index in sorted(hits)]

    def _tried_at(self, word: str) -> tuple[int, ...]:
        """The patterns that can start with the word (`_candidates`, remembered)."""
        found = self.tried.get(word)
        if found is None:
            if len(self.tried) >= _CACHED_WORDS:
                self.tried.clear()
            found = self.tried[word] = self._candidates(word)
        return found

    def _candidates(self, word: str) -> tuple[int, ...]:
        """The patterns starting with the word or with a prefix of it, without repeats."""
        candidates = list(self.by_word.get(word, ()))
        for n in range(1, min(len(word), self.longest_prefix) + 1):
            candidates += self.by_prefix.get(word[:n], ())
        return tuple(dict.fromkeys(candidates))


def _compiled(name: str, regex: str, flags: int) -> re.Pattern[str]:
    try:
        return re.compile(regex, flags)
    except re.error as error:
        raise ValueError(f"{name}: invalid regex: {error}") from None
