"""A small recursive-descent reader of Python regex syntax: the parse tree first_words walks.

The tree is the standard library parser's, simplifications included: plain (?:...) groups join
their sequence, a first item all alternatives share moves out, and alternatives of one
character merge into one class. Items are (op, arg): "literal" (a character), "in" (class
items: literal, range, category, negate), "at" (an anchor: ^ $ \\A \\b \\B \\Z), "group" (the
items of a capturing or flagged group), "branch" (the alternatives' items), "repeat" (low,
high, items), "assert" (a lookaround's items), "other" (., [^x], back-references, (?!)...).
The pattern must be valid (compile it first); what this does not read raises Unsupported.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

Item = tuple[str, Any]
MANY = 1 << 32  # the high bound of *, + and {m,}
_ESCAPES = dict(zip("afnrtv\\", "\a\f\n\r\t\v\\", strict=True))
_HEX = {"x": 2, "u": 4, "U": 8}
_OCTAL, _DIGITS = frozenset("01234567"), frozenset("0123456789")
_HEX_DIGITS, _FLAGS = frozenset("0123456789abcdefABCDEF"), frozenset("aiLmsux-")
_QUANTIFIERS = {"*": (0, MANY), "+": (1, MANY), "?": (0, 1)}
_SPECIAL = {".": ("other", None), "^": ("at", "^"), "$": ("at", "$")}


class Unsupported(Exception):
    pass


def parse(pattern: str) -> list[Item]:
    return _Reader(pattern).alternation()


class _Reader:
    def __init__(self, text: str) -> None:
        # tokens: a character, or a backslash and the character it escapes; "" ends them
        self.tokens = [*re.findall(r"\\.|.", text, flags=re.DOTALL), ""]
        self.pos = 0

    def peek(self) -> str:
        return self.tokens[self.pos]

    def get(self) -> str:
        if not (token := self.tokens[self.pos]):
            raise Unsupported("unexpected end")
        self.pos += 1
        return token

    def match(self, token: str) -> bool:
        found = self.tokens[self.pos] == token
        self.pos += found
        return found

    def take(self, allowed: frozenset[str], most: int = MANY) -> str:
        """Up to `most` next characters among `allowed`."""
        start = self.pos
        while self.pos - start < most and self.tokens[self.pos] in allowed:
            self.pos += 1
        return "".join(self.tokens[start : self.pos])

    def until(self, end: str) -> str:
        """The tokens before the next `end`, which is skipped too."""
        start = self.pos
        while self.get() != end:
            pass
        return "".join(self.tokens[start : self.pos - 1])

    def alternation(self) -> list[Item]:
        branches = [self.sequence()]
        while self.match("|"):
            branches.append(self.sequence())
        if len(branches) == 1:
            return branches[0]
        shared: list[Item] = []  # a first item all alternatives have moves out: a(?:b|c)
        while all(branches) and branches[0][0][0] in ("literal", "in", "at"):
            if any(branch[0] != branches[0][0] for branch in branches):
                break
            shared.append(branches[0][0])
            branches = [branch[1:] for branch in branches]
        if all(len(b) == 1 and _mergeable(b[0]) for b in branches):  # a|b|[cd] is [abcd]
            merged = [c for b in branches for c in ((b[0],) if b[0][0] == "literal" else b[0][1])]
            return [*shared, ("in", tuple(dict.fromkeys(merged)))]
        return [*shared, ("branch", branches)]

    def sequence(self) -> list[Item]:
        items: list[Item] = []
        while self.peek() not in ("", "|", ")"):
            token = self.get()
            if token in "*+?{" and (bounds := self.bounds(token)):
                last = items.pop()  # a plain group repeats its own items
                body = last[1] if last[0] == "plain" else [last]
                if not self.match("?"):  # lazy or possessive: the same words
                    self.match("+")
                items.append(("repeat", (*bounds, body)))
            elif token == "(":
                items += self.group()
            elif token == "[":
                items.append(self.character_class())
            elif token[0] == "\\":
                items.append(self.escape(token[1], in_class=False))
            else:
                items.append(_SPECIAL.get(token, ("literal", token)))
        spliced: list[Item] = []  # plain groups join the sequence
        for op, arg in items:
            spliced += arg if op == "plain" else [(op, arg)]
        return spliced

    def bounds(self, token: str) -> tuple[int, int] | None:
        """(low, high) of a quantifier; None where "{" is a literal."""
        if token != "{":
            return _QUANTIFIERS[token]
        start = self.pos
        low = self.take(_DIGITS)
        high = self.take(_DIGITS) if self.match(",") else low
        if self.pos == start or not self.match("}"):
            self.pos = start
            return None
        return int(low or 0), int(high) if high else MANY

    def group(self) -> list[Item]:
        """After "(": the group as a list of no item (comment, global flags) or one."""
        if not self.match("?"):
            return [("group", self.closed())]
        kind = self.get()
        if kind == "P" and self.match("<"):  # a named group
            self.until(">")
            return [("group", self.closed())]
        if kind in ("#", "P"):  # a comment, a named back-reference
            self.until(")")
            return [] if kind == "#" else [("other", None)]
        if kind == ":":
            return [("plain", self.closed())]
        if kind in ("=", "!", "<"):
            sign = self.get() if kind == "<" else kind
            body = self.closed()
            return [("assert", body) if sign == "=" or body else ("other", None)]
        if kind == ">":  # atomic
            self.closed()
            return [("other", None)]
        if kind == "(":  # conditional: (?(group)yes|no)
            self.until(")")
            self.alternation()
            self.until(")")
            return [("other", None)]
        flags = kind + self.take(_FLAGS)
        if "x" in flags.split("-")[0]:
            raise Unsupported("verbose")
        return [] if self.get() == ")" else [("group", self.closed())]

    def closed(self) -> list[Item]:
        items = self.alternation()
        if self.get() != ")":
            raise Unsupported("unclosed group")
        return items

    def character_class(self) -> Item:
        negated = self.match("^")
        items: list[Item] = []
        while (token := self.get()) != "]" or not items:  # a first "]" is a literal
            first = self.class_item(token)
            if not self.match("-"):
                items.append(first)
            elif self.peek() == "]":  # [a-]
                items += [first, ("literal", "-")]
            elif first[0] == "literal" and (last := self.class_item(self.get()))[0] == "literal":
                items.append(("range", (first[1], last[1])))
            else:
                raise Unsupported("range")
        items = list(dict.fromkeys(items))
        if len(items) == 1 and items[0][0] == "literal":
            return ("other", None) if negated else items[0]
        return ("in", (("negate", None), *items) if negated else tuple(items))

    def class_item(self, token: str) -> Item:
        if token[0] != "\\":
            return ("literal", token)
        if token == "\\b":
            return ("literal", "\b")
        if token[1] in _OCTAL:  # up to three octal digits
            return ("literal", chr(int(token[1] + self.take(_OCTAL, 2), 8)))
        return self.escape(token[1], in_class=True)

    def escape(self, char: str, *, in_class: bool) -> Item:
        """The item a backslash and `char` stand for (in a class: a class item)."""
        if char in "dDsSwW":
            return ("category", char) if in_class else ("in", (("category", char),))
        if char in "AbBZ" and not in_class:
            return ("at", "\\" + char)
        if char in _ESCAPES:
            return ("literal", _ESCAPES[char])
        if char in _HEX:
            return ("literal", chr(int(self.take(_HEX_DIGITS, _HEX[char]), 16)))
        if char == "N":  # \N{name}
            self.get()  # "{"
            return ("literal", unicodedata.lookup(self.until("}")))
        if char == "0":
            return ("literal", chr(int("0" + self.take(_OCTAL, 2), 8)))
        if char in _DIGITS:  # octal if three octal digits, else a back-reference
            digits = char + self.take(_DIGITS, 1)
            if len(digits) == 2 and set(digits) <= _OCTAL and (third := self.take(_OCTAL, 1)):
                return ("literal", chr(int(digits + third, 8)))
            return ("other", None)
        if char.isascii() and char.isalpha():
            raise Unsupported(f"escape \\{char}")
        return ("literal", char)


def _mergeable(item: Item) -> bool:
    return item[0] == "literal" or (item[0] == "in" and item[1][0][0] != "negate")
