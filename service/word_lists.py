"""Word list files shipped in service/config: one entry a line (pure file reading)."""

from __future__ import annotations

from pathlib import Path


def read_words(path: Path) -> frozenset[str]:
    """The entries of a word list, lower-cased; blank lines and `#` comments skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().casefold() for w in lines if w.strip() and not w.startswith("#"))
