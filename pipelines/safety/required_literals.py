"""The literals a pattern's every match contains, so it is searched only in text holding one.

Reads the regex's parse tree (regex_tokens). In a sequence every item must match, so any one
mandatory item's literals will do: the most selective is kept (longest shortest literal, then
fewest). A run of literal characters is one literal; a group gives its own; alternatives give
the union of theirs; a repeat of at least one gives its body's; a small class gives its
characters. Anchors, lookarounds, wide classes and optional parts give nothing. `None` means no
short list is known (or the pattern ignores case): search it always. A pattern whose match must
hold a non-ASCII character (Devanagari, CJK) is not searched in ASCII text either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from pipelines.safety.regex_tokens import Item, Unsupported, parse

MOST = 6  # literals tested before a search: beyond that, searching is as cheap
_SMALL_CLASS = 4
_IGNORES_CASE = re.compile(r"\(\?[aLmsux]*i")

type Literals = frozenset[str] | None


@dataclass(frozen=True)
class Gate:
    """What text must hold for the pattern to match in it."""

    literals: Literals = None
    non_ascii: bool = False

    def admits(self, text: str) -> bool:
        if self.non_ascii and text.isascii():
            return False
        return self.literals is None or any(literal in text for literal in self.literals)


def required_literals(pattern: str, flags: int = 0, *, most: int = MOST) -> Gate:
    """The pattern's gate; an alternation of more than `most` literals gives none (a caller
    that scans all its patterns' literals in one pass can afford more)."""
    if flags & re.IGNORECASE or _IGNORES_CASE.search(pattern):
        return Gate()
    try:
        re.compile(pattern, flags)  # the reader assumes a valid pattern
        items = parse(pattern)
        return Gate(_sequence(items, most), _needs_non_ascii(items))
    except (Unsupported, re.error, RecursionError):
        return Gate()


def _sequence(items: list[Item], most: int) -> Literals:
    best: Literals = None
    run = ""
    for op, arg in items:
        if op == "literal":
            run += arg
            continue
        best = _better(best, frozenset((run,)) if run else None)
        run = ""
        best = _better(best, _item(op, arg, most))
    return _better(best, frozenset((run,)) if run else None)


def _item(op: str, arg: Any, most: int) -> Literals:
    if op == "group":
        return _sequence(arg, most)
    if op == "branch":
        found: set[str] = set()
        for alternative in arg:
            literals = _sequence(alternative, most)
            if literals is None:
                return None
            found |= literals
        return frozenset(found) if len(found) <= most else None
    if op == "repeat":
        low, _, body = cast(tuple[int, int, list[Item]], arg)
        return _sequence(body, most) if low >= 1 else None
    if op == "in":
        return _characters(arg)
    return None  # an anchor, a lookaround, any character, a back-reference


def _characters(items: tuple[Item, ...]) -> Literals:
    chars: set[str] = set()
    for op, arg in items:
        if op == "literal":
            chars.add(arg)
        elif op == "range" and ord(arg[1]) - ord(arg[0]) < _SMALL_CLASS:
            chars.update(chr(code) for code in range(ord(arg[0]), ord(arg[1]) + 1))
        else:
            return None
    return frozenset(chars) if len(chars) <= _SMALL_CLASS else None


def _better(one: Literals, other: Literals) -> Literals:
    if one is None or other is None:
        return other if one is None else one
    return max(one, other, key=lambda found: (min(map(len, found)), -len(found)))


def _needs_non_ascii(items: list[Item]) -> bool:
    return any(_item_needs_non_ascii(op, arg) for op, arg in items)


def _item_needs_non_ascii(op: str, arg: Any) -> bool:
    if op == "literal":
        return not str(arg).isascii()
    if op == "group":
        return _needs_non_ascii(arg)
    if op == "branch":
        return all(_needs_non_ascii(alternative) for alternative in arg)
    if op == "repeat":
        low, _, body = cast(tuple[int, int, list[Item]], arg)
        return low >= 1 and _needs_non_ascii(body)
    if op == "in":
        return all(
            kind in ("literal", "range") and not "".join(value).isascii() for kind, value in arg
        )
    return False
