"""RuleMatcher: named regexes run together; word patterns are tried only where they can start.

Word patterns see the word form (single spaces between words) and always match whole words.
Each is tried only at the words it can start with (see first_words), so the cost grows with the
message, not with the number of patterns times its length. Flat patterns run as one regex.
"""

from __future__ import annotations

import re

from pipelines.safety.first_words import first_words

NEVER = "(?!)"


class RuleMatcher:
    """Named regexes; `first`/`all` name the rules that match, in configuration order."""

    def __init__(self, named: list[tuple[str, str]], *, words: bool, flags: int = 0) -> None:
        self.names = [name for name, _ in named]
        self.words = words
        if not words:
            body = "|".join(f"(?P<r{i}>{regex})" for i, (_, regex) in enumerate(named)) or NEVER
            self.regex = re.compile(body, flags)
            return
        self.patterns = [re.compile(rf"(?:{regex})(?!\S)", flags) for _, regex in named]
        self.by_word: dict[str, list[int]] = {}
        self.by_prefix: list[tuple[str, int]] = []
        self.anywhere: list[int] = []
        for index, (_, regex) in enumerate(named):
            starts = first_words(regex)
            if starts is None:
                self.anywhere.append(index)
                continue
            for word in starts.exact:
                self.by_word.setdefault(word, []).append(index)
            self.by_prefix += [(prefix, index) for prefix in starts.prefixes]

    def first(self, text: str) -> str | None:
        found = self._hits(text, stop_at_first=True)
        return found[0] if found else None

    def all(self, text: str) -> list[str]:
        return self._hits(text, stop_at_first=False)

    def _hits(self, text: str, *, stop_at_first: bool) -> list[str]:
        if not self.words:
            found = (m.lastgroup for m in self.regex.finditer(text))
            return [self.names[int(g[1:])] for g in found if g]
        hits: list[int] = []
        position = 0
        for word in text.split(" "):
            candidates = self.by_word.get(word, [])
            if self.by_prefix:
                candidates = candidates + [i for p, i in self.by_prefix if word.startswith(p)]
            for index in candidates + self.anywhere:
                if index not in hits and self.patterns[index].match(text, position):
                    hits.append(index)
                    if stop_at_first:
                        return [self.names[index]]
            position += len(word) + 1
        return [self.names[index] for index in sorted(hits)]
