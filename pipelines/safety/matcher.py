"""RuleMatcher: named regexes run together; word patterns are tried only where they can start.

Word patterns see the word form (single spaces between words) and always match whole words.
One regex of every possible first word finds where any pattern can start, and only the
patterns starting with that word are tried there (see first_words): the cost grows with the
message, not with the number of patterns times its length. Flat patterns run as one regex.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pipelines.safety.first_words import first_words

NEVER = "(?!)"
type Trie = dict[str, Trie]


def trie_regex(words: Iterable[str]) -> str:
    """Literal words as one regex shaped like a letter trie ("i(?:diot(?:ic)?|mbecile)"): a word
    that cannot match fails at its first letters instead of against every entry."""
    trie: Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return f"(?:{_render(trie)})" if trie else NEVER


def _render(node: Trie) -> str:
    branches = [re.escape(char) + _render(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


class RuleMatcher:
    """Named regexes; `all` names the rules that match, in configuration order."""

    def __init__(self, named: list[tuple[str, str]], *, words: bool, flags: int = 0) -> None:
        self.names = [name for name, _ in named]
        self.words = words
        if not words:
            body = "|".join(f"(?P<r{i}>{regex})" for i, (_, regex) in enumerate(named)) or NEVER
            self.regex = _compiled("indirect", body, flags)
            return
        self.patterns = [_compiled(name, rf"(?:{regex})(?!\S)", flags) for name, regex in named]
        self.by_word: dict[str, list[int]] = {}
        self.by_prefix: list[tuple[str, int]] = []
        self.anywhere: list[int] = []  # first word unknown: searched at every word
        for index, (_, regex) in enumerate(named):
            starts = first_words(regex)
            if starts is None:
                self.anywhere.append(index)
                continue
            for word in starts.exact:
                self.by_word.setdefault(word, []).append(index)
            self.by_prefix += [(prefix, index) for prefix in starts.prefixes]
        exact = trie_regex(self.by_word)
        prefixes = trie_regex(p for p, _ in self.by_prefix)
        self.starts = re.compile(rf"(?<!\S)(?:{exact}(?!\S)|{prefixes}\S*)")
        self.searched = {i: re.compile(rf"(?<!\S)(?:{named[i][1]})(?!\S)") for i in self.anywhere}

    def all(self, text: str) -> list[str]:
        if not self.words:
            found = (m.lastgroup for m in self.regex.finditer(text))
            return [self.names[int(g[1:])] for g in found if g]
        hits = {i for i, pattern in self.searched.items() if pattern.search(text)}
        for start in self.starts.finditer(text):
            word, position = start.group(), start.start()
            candidates = self.by_word.get(word, [])
            if self.by_prefix:
                candidates = candidates + [i for p, i in self.by_prefix if word.startswith(p)]
            for index in candidates:
                if index not in hits and self.patterns[index].match(text, position):
                    hits.add(index)
        return [self.names[index] for index in sorted(hits)]


def _compiled(name: str, regex: str, flags: int) -> re.Pattern[str]:
    try:
        return re.compile(regex, flags)
    except re.error as error:
        raise ValueError(f"{name}: invalid regex: {error}") from None
