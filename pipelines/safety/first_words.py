"""The words a pattern can start with, so a matcher only tries it where it can match.

Reads the regex's parse tree (the standard library's own parser) and lists every literal first
word, or first-word prefix where a class like \\w follows some literal letters. `None` means
the first word cannot be known (the pattern starts with \\w+ or similar): try it everywhere.
"""

from __future__ import annotations

import re
import re._constants as c  # the standard library's own regex parser (Python 3.11+)
import re._parser as parser
from dataclasses import dataclass, field
from typing import Any

_LIMIT = 50_000  # partial prefixes tracked before giving up
_SMALL_CLASS = 8  # a wider character class ([a-z]) makes the word a prefix, not an enumeration
_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)
_ENDS = (c.AT_END, c.AT_END_STRING)


class _Unknown(Exception):
    pass


@dataclass
class FirstWords:
    exact: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)


def first_words(pattern: str) -> FirstWords | None:
    found = FirstWords()
    try:
        still_open = _walk(list(parser.parse(pattern)), {""}, found)
    except (_Unknown, re.error, RecursionError):
        return None
    found.exact |= still_open
    if "" in found.exact or "" in found.prefixes:
        return None
    return found


def _walk(items: list[Any], partial: set[str], found: FirstWords) -> set[str]:
    """Consumes `items` after each open prefix; returns the prefixes still open after them."""
    for op, arg in items:
        if not partial:
            break
        if len(partial) > _LIMIT:
            raise _Unknown
        if op is c.LITERAL:
            char = chr(arg)
            if char == " ":
                found.exact |= partial
                partial = set()
            else:
                partial = {p + char for p in partial}
        elif op is c.SUBPATTERN:
            partial = _walk(list(arg[3]), partial, found)
        elif op is c.BRANCH:
            partial = set().union(*(_walk(list(alt), partial, found) for alt in arg[1]))
        elif op in _REPEATS:
            partial = _repeat(arg, partial, found)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            continue
        elif op is c.IN and (chars := _characters(arg)) is not None:
            if " " in chars:
                found.exact |= partial
            partial = {p + char for p in partial for char in chars if char != " "}
        elif op is c.AT:
            if arg in _ENDS:
                found.exact |= partial
                partial = set()
        else:  # a class, \w, any character...: the word goes on with something unknown
            found.prefixes |= partial
            partial = set()
    return partial


def _repeat(arg: tuple[int, int, Any], partial: set[str], found: FirstWords) -> set[str]:
    low, high, body = arg
    result = set(partial) if low == 0 else set()
    current = partial
    for count in range(1, min(high, 3) + 1):
        current = _walk(list(body), current, found)
        if count >= low:
            result |= current
        if not current:
            return result
    if high > 3 or low > 3:
        found.prefixes |= current  # may go on: keep what is known as a prefix
    return result


def _characters(items: list[tuple[Any, Any]]) -> set[str] | None:
    """The characters of a small class like [rsz] or [a-e]; None for anything wider."""
    chars: set[str] = set()
    for op, arg in items:
        if op is c.LITERAL:
            chars.add(chr(arg))
        elif op is c.RANGE:
            chars.update(chr(code) for code in range(arg[0], arg[1] + 1))
        else:
            return None
    return chars if len(chars) <= _SMALL_CLASS else None
