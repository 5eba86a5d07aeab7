"""Keyword expansion: domain terms in the query get their expansions appended, never substituted.

`expand_keywords("how do I file an FIR?", {"fir": "First Information Report"})`
-> "how do I file an FIR? (First Information Report)". Keys match whole words, case-insensitively,
multi-word keys with any whitespace between their words; the longest key wins where keys overlap.
Expansions are deduplicated in the order their keys appear, and one already present in the text
is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache


def expand_keywords(text: str, keyword_map: Mapping[str, str]) -> str:
    if not keyword_map or not text.strip():
        return text
    matcher, expansions_of = _compiled(tuple(keyword_map.items()))
    chosen: list[str] = []
    seen: set[str] = set()
    for match in matcher.finditer(text):
        expansion = expansions_of.get(_key(match.group(0)), "")
        folded = _key(expansion)
        if not folded or folded in seen or _contains(text, expansion):
            continue
        seen.add(folded)
        chosen.append(expansion.strip())
    return f"{text} ({'; '.join(chosen)})" if chosen else text


def _key(term: str) -> str:
    return " ".join(term.casefold().split())


def _words_pattern(term: str) -> str:
    return r"\s+".join(re.escape(word) for word in term.split())


@lru_cache(maxsize=16)
def _compiled(items: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str], dict[str, str]]:
    expansions_of: dict[str, str] = {}
    for key, expansion in items:
        if _key(key) and _key(expansion):
            expansions_of.setdefault(_key(key), expansion)
    keys = sorted(expansions_of, key=len, reverse=True)
    body = "|".join(_words_pattern(k) for k in keys) or "(?!)"
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE), expansions_of


def _contains(text: str, phrase: str) -> bool:
    pattern = rf"(?<!\w){_words_pattern(_key(phrase))}(?!\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None
