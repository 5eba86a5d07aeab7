"""Spelling folds: a language pack's own normal form for the many spellings of one word.

Romanised Hindi has no standard spelling ("kutta", "kuttaa", "kutte", "kuttey"; "chutiya",
"chootiya"), and Devanagari is written with or without long vowels and nuktas. A language
block's `spelling` (regex -> replacement, applied in order) is run on the word form of each
clause before that block's rules see it, and on the block's own list entries, phrases and the
literal words of its patterns, so an entry written once matches every spelling that the fold
maps to the same form. Blocks without `spelling` see the word form unchanged. A greeting
block's `shorthand` is a word map (`word_map`: "ur" -> "your") put in the message before every
greeting fold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from pipelines.safety.required_literals import required_literals

_REMEMBERED = 2048  # folded texts kept per fold (a few messages' clauses)
_REMEMBERED_CHARS = 300  # and only short ones: the memo stays under ~1 MB a fold
_TEMPLATE = re.compile(r"\{!?[a-z_]+\}")
_UNJOINABLE = re.compile(r"\\[1-9]|\(\?P=|\(\?[aiLmsux]")  # back-references, inline flags
# literal words of a pattern: letters not right after a backslash (\w, \S) or inside a name;
# an Indic script's vowel signs and virama are not \w but belong to the word ("तेरी")
_INDIC = "\u0900-\u0dff"
_LITERAL = re.compile(rf"(?<![\\\w{_INDIC}])(?:[^\W\d_]|[{_INDIC}])+")


Replacement = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class Fold:
    """Ordered regex substitutions; the empty fold leaves text unchanged."""

    steps: tuple[tuple[re.Pattern[str], Replacement], ...] = ()

    def __call__(self, text: str) -> str:
        if not self.steps:
            return text
        if len(text) > _REMEMBERED_CHARS:  # a long message is folded each time, not kept
            return self._folded(text)
        memo = self._memo  # one message's clauses are folded by several detectors
        found = memo.get(text)
        if found is None:
            if len(memo) >= _REMEMBERED:
                memo.clear()
            found = memo[text] = self._folded(text)
        return found

    def _folded(self, text: str) -> str:
        if self._any is not None and not self._any.search(text):
            return text  # no step matches the text, so no step changes it
        for pattern, replacement, literal in self._gated:
            # a step whose every match holds a literal the text lacks cannot change it
            if not literal or literal in text:
                text = pattern.sub(replacement, text)
        return text

    @cached_property
    def _memo(self) -> dict[str, str]:
        return {}

    @cached_property
    def _gated(self) -> tuple[tuple[re.Pattern[str], Replacement, str], ...]:
        """Each step with the one literal its every match holds ("" when there is none)."""
        gated = []
        for pattern, replacement in self.steps:
            literals = required_literals(pattern.pattern, pattern.flags).literals
            single = next(iter(literals)) if literals and len(literals) == 1 else ""
            gated.append((pattern, replacement, single))
        return tuple(gated)

    @cached_property
    def _any(self) -> re.Pattern[str] | None:
        """One regex that finds whatever any step would (None when the steps cannot be joined:
        back-references or inline flags)."""
        sources = [pattern.pattern for pattern, _ in self.steps]
        if not sources or any(_UNJOINABLE.search(source) for source in sources):
            return None
        try:
            return re.compile("|".join(f"(?:{source})" for source in sources))
        except re.error:
            return None


IDENTITY = Fold()


def fold_of(spelling: Mapping[str, str], where: str) -> Fold:
    steps = []
    for regex, replacement in spelling.items():
        try:
            steps.append((re.compile(regex), replacement))
        except re.error as error:
            raise ValueError(f"{where}.spelling: invalid regex {regex!r}: {error}") from None
    return Fold(tuple(steps))


def word_map(words: Mapping[str, str]) -> Fold:
    """One step that puts each whole word of `words` for its value ("ur" -> "your")."""
    if not words:
        return IDENTITY
    alternation = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    found = re.compile(rf"(?<!\S)(?:{alternation})(?!\S)")
    return Fold(((found, lambda match: words[match.group()]),))


def fold_pattern(pattern: str, fold: Fold) -> str:
    """The pattern with its literal words folded; `{list}` names are left alone."""
    if not fold.steps:
        return pattern
    parts, last = [], 0
    for match in _TEMPLATE.finditer(pattern):
        parts += [_fold_literals(pattern[last : match.start()], fold), match.group()]
        last = match.end()
    parts.append(_fold_literals(pattern[last:], fold))
    return "".join(parts)


def _fold_literals(text: str, fold: Fold) -> str:
    return _LITERAL.sub(lambda m: fold(m.group()), text)
