"""Sentences of real technical prose: the Python 3.11 documentation (Debian python3.11-doc)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from glob import glob
from html import unescape

from bench.datasets.sources import debian_file

DOCS = "/usr/share/doc/python3.11/html"
SECTIONS = ("library", "tutorial", "howto", "faq", "reference", "using")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def paragraphs(html: str) -> list[str]:
    """The plain text of every <p> element (tags stripped, entities decoded, spaces collapsed)."""
    return [" ".join(unescape(_TAG.sub("", body)).split()) for body in _PARAGRAPH.findall(html)]


@lru_cache(maxsize=1)
def doc_sentences() -> tuple[str, ...]:
    """Every sentence of 30-220 characters in the HTML paragraphs of the chosen sections."""
    debian_file(f"{DOCS}/index.html", "python3.11-doc")
    sentences: list[str] = []
    for section in SECTIONS:
        for path in sorted(glob(f"{DOCS}/{section}/*.html")):
            with open(path, encoding="utf-8", errors="replace") as handle:
                found = paragraphs(handle.read())
            for paragraph in found:
                sentences += [
                    s
                    for s in _SENTENCE_END.split(paragraph.replace("¶", ""))
                    if 30 <= len(s) <= 220
                ]
    return tuple(dict.fromkeys(sentences))


def spread(
    sentences: Iterable[str], keys_of: Callable[[str], list[str]], per_key: int
) -> list[str]:
    """Sentences with at least one key, at most `per_key` per key, in a fixed hashed order."""
    ordered = sorted(sentences, key=lambda s: hashlib.sha1(s.encode()).hexdigest())
    counts: dict[str, int] = {}
    chosen = []
    for sentence in ordered:
        keys = [k for k in keys_of(sentence) if counts.get(k, 0) < per_key]
        if not keys:
            continue
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
        chosen.append(sentence)
    return chosen
