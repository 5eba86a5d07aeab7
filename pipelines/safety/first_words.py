"""The words a pattern can start with, so a matcher only tries it where it can match.

Reads the regex's parse tree (regex_tokens) and lists every literal first word, or first-word
prefix where a class like \\w follows some literal letters. `None` means the first word cannot
be known (the pattern starts with \\w+ or similar, or uses syntax regex_tokens does not read):
try it everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipelines.safety.regex_tokens import Item, Unsupported, parse

_LIMIT = 50_000  # partial prefixes tracked before giving up
_SMALL_CLASS = 8  # a wider character class ([a-z]) makes the word a prefix, not an enumeration
_ENDS = ("$", "\\Z")


@dataclass(frozen=True)
class WholeText:
    """A regex for whole texts, tried only on a text that starts with one of its first words
    (a set lookup turns most texts away before the regex runs)."""

    regex: re.Pattern[str]
    starts: frozenset[str] | None  # None: the first words are not known, always tried

    @classmethod
    def of(cls, regex: re.Pattern[str]) -> WholeText:
        return cls(regex, exact_first_words(regex.pattern))

    def fullmatch(self, text: str) -> bool:
        if self.starts is not None and text.partition(" ")[0] not in self.starts:
            return False
        return self.regex.fullmatch(text) is not None


class _Unknown(Exception):
    pass


@dataclass
class FirstWords:
    exact: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)


def first_words(pattern: str) -> FirstWords | None:
    found = FirstWords()
    try:
        re.compile(pattern)  # the reader assumes a valid pattern: the standard library decides
        still_open = _walk(parse(pattern), {""}, found)
    except (_Unknown, Unsupported, re.error, RecursionError):
        return None
    found.exact |= still_open
    if "" in found.exact or "" in found.prefixes:
        return None
    return found


def exact_first_words(pattern: str) -> frozenset[str] | None:
    """The words every match of the pattern starts with, when they are a known finite set (no
    prefixes); None otherwise. A text whose first word is not in it cannot match from 0."""
    found = first_words(pattern)
    if found is None or found.prefixes:
        return None
    return frozenset(found.exact)


def _walk(items: list[Item], partial: set[str], found: FirstWords) -> set[str]:
    """Consumes `items` after each open prefix; returns the prefixes still open after them."""
    for op, arg in items:
        if not partial:
            break
        if len(partial) > _LIMIT:
            raise _Unknown
        if op == "literal":
            if arg == " ":
                found.exact |= partial
                partial = set()
            else:
                partial = {p + arg for p in partial}
        elif op == "group":
            partial = _walk(arg, partial, found)
        elif op == "branch":
            partial = set().union(*(_walk(alt, partial, found) for alt in arg))
        elif op == "repeat":
            partial = _repeat(arg, partial, found)
        elif op == "assert":
            continue
        elif op == "in" and (chars := _characters(arg)) is not None:
            if " " in chars:
                found.exact |= partial
            partial = {p + char for p in partial for char in chars if char != " "}
        elif op == "at":
            if arg in _ENDS:
                found.exact |= partial
                partial = set()
        else:  # a class, \w, any character...: the word goes on with something unknown
            found.prefixes |= partial
            partial = set()
    return partial


def _repeat(arg: tuple[int, int, list[Item]], partial: set[str], found: FirstWords) -> set[str]:
    low, high, body = arg
    result = set(partial) if low == 0 else set()
    current = partial
    for count in range(1, min(high, 3) + 1):
        current = _walk(body, current, found)
        if count >= low:
            result |= current
        if not current:
            return result
    if high > 3 or low > 3:
        found.prefixes |= current  # may go on: keep what is known as a prefix
    return result


def _characters(items: tuple[Item, ...]) -> set[str] | None:
    """The characters of a small class like [rsz] or [a-e]; None for anything wider."""
    chars: set[str] = set()
    for op, arg in items:
        if op == "literal":
            chars.add(arg)
        elif op == "range":
            chars.update(chr(code) for code in range(ord(arg[0]), ord(arg[1]) + 1))
        else:
            return None
    return chars if len(chars) <= _SMALL_CLASS else None
