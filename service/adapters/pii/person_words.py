"""Words of a message, each classed for the person-name recognizer (pii_person.py)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from service.adapters.pii.lexicon import NameLexicon

# A relation marker ("S/o", "w/o", "a/c") is one word; person.yaml lists which are cues.
# A letter, or a combining mark (a Devanagari, Tamil or Bengali vowel sign, a virama, an accent
# typed apart), which `\w` leaves out: "सुनील" and "சுரேஷ்" are one word each.
_MARKS = "".join(
    re.escape(chr(c))
    for c in range(0x300, 0x10000)
    if unicodedata.category(chr(c)) in ("Mn", "Mc") and not chr(c).isalnum()
)
_LETTER = rf"(?:[^\W\d_]|[{_MARKS}])"
_WORD = re.compile(rf"(?<![\w/])[^\W\d_]/[^\W\d_](?![\w/])|{_LETTER}+(?:[-'’]{_LETTER}+)*")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_CONTRACTION = re.compile(r".'[a-z]")  # "I'm", "C'mon"; not "O'Brien"
_JOIN = re.compile(r" |\. ?|-")  # what may sit between two parts of one name
_IN_CODE = re.compile(r"[./@\\_]\w")


class Kind(Enum):
    STRONG = "strong"  # a listed name that is not an everyday word
    WEAK = "weak"  # a listed name that is also an everyday word
    PROPER = "proper"  # capitalised, unlisted, not an everyday word
    INITIAL = "initial"
    OTHER = "other"


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int
    kind: Kind
    joined: bool  # only a space, dot or hyphen separates it from the previous word


def everyday(word: str, lex: NameLexicon) -> bool:
    """An everyday word, a contraction ("I'm") or a compound of everyday words ("E-mail")."""
    if _CONTRACTION.search(word.replace("’", "'")):
        return True
    low = word.casefold()
    if low in lex.stop_words:
        return True
    parts = low.split("-")
    return all(lex.is_everyday(p) or len(p) == 1 for p in parts)


def uncased(word: str) -> bool:
    """A word of a script without capitals (Devanagari, Tamil, Arabic...): no capital marks a
    name in it, so only listed names count."""
    return word.upper() == word.lower()


def word_kind(word: str, lex: NameLexicon, caseless: bool) -> Kind:
    low = word.casefold()
    if len(word) == 1:
        return Kind.INITIAL if word.isupper() else Kind.OTHER
    capitalised = word[0].isupper() and not word.isupper()
    uppers = sum(c.isupper() for c in word)
    acronym = uppers > 1 and uppers >= len(word) - uppers  # "CDs", "VoIP"
    if not (capitalised or caseless or uncased(word)) or acronym or low in lex.stop_words:
        return Kind.OTHER
    if low in lex.not_names or low in lex.titles:
        return Kind.OTHER
    if lex.is_name(word):
        return Kind.WEAK if everyday(word, lex) or len(word) < 3 else Kind.STRONG
    if caseless or uncased(word) or everyday(word, lex):
        return Kind.OTHER
    return Kind.PROPER


def split_words(text: str, lex: NameLexicon) -> list[Word]:
    caseless = not any(c.isupper() for c in text)
    words: list[Word] = []
    previous_end = 0
    for match in _WORD.finditer(text):
        raw = _POSSESSIVE.sub("", match.group())
        start, end = match.start(), match.start() + len(raw)
        joined = bool(words) and _JOIN.fullmatch(text[previous_end:start]) is not None
        kind = word_kind(raw, lex, caseless)
        if "/" in raw or _IN_CODE.match(text, end) or (start and text[start - 1] in "./@\\_"):
            kind = Kind.OTHER  # part of a domain, path or dotted name: "python.org"
        words.append(Word(raw, start, end, kind, joined))
        previous_end = end
    return words


def name_runs(words: list[Word]) -> list[tuple[int, int]]:
    """Index ranges [i, j) of neighbouring name-like words."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if words[i].kind is Kind.OTHER:
            i += 1
            continue
        j = i + 1
        while j < len(words) and words[j].kind is not Kind.OTHER and words[j].joined:
            j += 1
        runs.append((i, j))
        i = j
    return runs
