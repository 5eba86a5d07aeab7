"""trie_regex: literal strings as one regex shaped like a letter trie."""

from __future__ import annotations

import re
from collections.abc import Iterable

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
