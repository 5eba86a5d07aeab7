"""Keyword expansion: domain terms in the query get their expansions appended, never substituted.

`expand_keywords("how do I file an FIR?", {"fir": "First Information Report"})`
-> "how do I file an FIR? (First Information Report)". Keys match whole words, case-insensitively,
multi-word keys with any whitespace between their words (a Devanagari vowel sign or virama is
part of a word: "रिट" is not found in "ब्रिटेन"). Keys of four letters or more, and keys
not in ASCII, also match through the spelling fold (pipelines/safety/keyword_fold.py): the
folded key in the folded text, so "jamaanat" finds the entry "zamanat" and "थाने" the entry
"थाना". Where matches overlap, the one covering more words wins (then the one starting first).
Expansions are deduplicated in the order their keys appear, and one already present in the text
is skipped.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping
from functools import lru_cache

from pipelines.safety.keyword_fold import WORD, WORD_CHAR, fold_text, foldable

_Matcher = tuple[re.Pattern[str], dict[str, str]]  # alternation of keys, expansion per key


def expand_keywords(text: str, keyword_map: Mapping[str, str]) -> str:
    if not keyword_map or not text.strip():
        return text
    exact, folded = _compiled(tuple(keyword_map.items()))
    chosen: list[str] = []
    seen: set[str] = set()
    for expansion in _expansions(text, exact, folded):
        key = _key(expansion)
        if not key or key in seen or _contains(text, expansion):
            continue
        seen.add(key)
        chosen.append(expansion.strip())
    return f"{text} ({'; '.join(chosen)})" if chosen else text


def _expansions(text: str, exact: _Matcher, folded: _Matcher) -> list[str]:
    """The expansions of the non-overlapping matches of both passes, in text order. Word
    indices are comparable across passes: the fold changes words, never their number."""
    found: list[tuple[int, int, str]] = []  # (first word, past-last word, expansion)
    for source, (matcher, expansions_of) in ((text, exact), (fold_text(text), folded)):
        starts = [word.start() for word in WORD.finditer(source)]
        for match in matcher.finditer(source):
            first = bisect_left(starts, match.start())
            found.append((first, bisect_left(starts, match.end()), expansions_of[_key(match[0])]))
    found.sort(key=lambda span: (-(span[1] - span[0]), span[0]))
    kept: list[tuple[int, int, str]] = []
    for span in found:
        if all(span[1] <= other[0] or other[1] <= span[0] for other in kept):
            kept.append(span)
    return [expansion for _, _, expansion in sorted(kept)]


def _key(term: str) -> str:
    return " ".join(term.casefold().split())


def _words_pattern(term: str) -> str:
    return r"\s+".join(re.escape(word) for word in term.split())


def _matcher(expansions_of: dict[str, str]) -> _Matcher:
    keys = sorted(expansions_of, key=len, reverse=True)
    body = "|".join(_words_pattern(k) for k in keys) or "(?!)"
    return re.compile(rf"(?<!{WORD_CHAR})(?:{body})(?!{WORD_CHAR})", re.IGNORECASE), expansions_of


@lru_cache(maxsize=16)
def _compiled(items: tuple[tuple[str, str], ...]) -> tuple[_Matcher, _Matcher]:
    """The exact matcher (every key as written) and the folded one (foldable keys, folded)."""
    exact: dict[str, str] = {}
    for key, expansion in items:
        if _key(key) and _key(expansion):
            exact.setdefault(_key(key), expansion)
    folded: dict[str, str] = {}
    for key, expansion in exact.items():
        if foldable(key):
            folded.setdefault(_key(fold_text(key)), expansion)
    return _matcher(exact), _matcher(folded)


def _contains(text: str, phrase: str) -> bool:
    pattern = rf"(?<!{WORD_CHAR}){_words_pattern(_key(phrase))}(?!{WORD_CHAR})"
    return re.search(pattern, text, re.IGNORECASE) is not None
