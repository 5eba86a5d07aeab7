"""Benign real questions: the question headings of FAQ documents shipped by Debian packages."""

from __future__ import annotations

import re
from glob import glob
from html.parser import HTMLParser

from bench.datasets.base import Dataset, SourceMissing, make
from bench.datasets.sources import debian_file

# (package, glob of HTML files, tags whose text is a question, licence)
FAQS = (
    ("python3.11-doc", "/usr/share/doc/python3.11/html/faq/*.html", ("h2", "h3"), "PSF-2.0"),
    ("debian-faq", "/usr/share/doc/debian/FAQ/*.en.html", ("h2", "h3", "h4"), "SPI verbatim"),
    ("zsh-doc", "/usr/share/doc/zsh-common/html/FAQ0*.html", ("h2",), "Zsh (MIT-like)"),
    ("git-doc", "/usr/share/doc/git-doc/gitfaq.html", ("h3",), "GPL-2.0"),
    ("sqlite3-doc", "/usr/share/doc/sqlite3/faq.html", ("a",), "public domain"),
)
_NUMBERING = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*[.:]?|\(\d+\))\s+")


class _Headings(HTMLParser):
    def __init__(self, tags: tuple[str, ...]) -> None:
        super().__init__()
        self.tags, self.depth, self.parts = set(tags), 0, [""]
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.tags:
            self.depth += 1
            self.parts = []

    def handle_endtag(self, tag: str) -> None:
        if tag in self.tags and self.depth:
            self.depth -= 1
            self.found.append(" ".join("".join(self.parts).split()))

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def questions_in(html: str, tags: tuple[str, ...]) -> list[str]:
    """Heading texts that ask something, without section numbers and permalink marks."""
    parser = _Headings(tags)
    parser.feed(html)
    cleaned = (_NUMBERING.sub("", text.replace("¶", "")).strip() for text in parser.found)
    return [text for text in cleaned if text.endswith("?") and len(text) > 8]


def faq_questions(packages: tuple[str, ...] | None = None) -> Dataset:
    """All FAQ questions, or those of some packages (the split does not depend on the choice)."""
    texts: list[str] = []
    sources: list[str] = []
    for package, pattern, tags, licence in FAQS:
        if packages is not None and package not in packages:
            continue
        paths = sorted(glob(pattern))
        if not paths:
            debian_file(pattern, package)  # raises SourceMissing with the apt-get hint
        for path in paths:
            with open(path, encoding="utf-8", errors="replace") as handle:
                texts += questions_in(handle.read(), tags)
        sources.append(f"{package} ({licence})")
    if not texts:
        raise SourceMissing("no FAQ questions found")
    return make(
        "faq-questions",
        "greeting",
        "question",
        "Debian FAQ headings: " + ", ".join(sources),
        "see source",
        texts,
    )
