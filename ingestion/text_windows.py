"""Where to cut text: at a sentence end if one is near, else at a space, never inside a word."""

from __future__ import annotations

import re
from collections.abc import Iterator

# A sentence ends at . ! ? (plus closing quotes/brackets) followed by whitespace, or at a newline.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'’”)\]]*(?=\s)|\n")
_SHORT_WORD_BEFORE_DOT = re.compile(r"(?:^|\s)\(?[A-Za-z]{1,2}\.$")  # "Dr.", "B.", "No."


def _is_sentence_end(text: str, position: int) -> bool:
    """True when `position` (just after a boundary match) really ends a sentence."""
    if text[position - 1 : position] == "\n":
        return True
    head = text[max(0, position - 8) : position].rstrip("\"'’”)]")
    return not (head.endswith(".") and _SHORT_WORD_BEFORE_DOT.search(head))


def cut_point(text: str, start: int, low: int, high: int, slack: int = 0) -> int:
    """End of a piece starting at `start`, between start+low and start+high where possible.

    A rest of up to `high + slack` chars is taken whole, so no sliver is left at the end."""
    if len(text) - start <= high + slack:
        return len(text)
    region_start, region_end = start + low, start + high
    ends = [
        m.end()
        for m in _SENTENCE_END.finditer(text, region_start, region_end + 1)
        if _is_sentence_end(text, m.end())
    ]
    if ends:
        return ends[-1]
    for lo in (region_start, start + 1):  # a space in range, else any space: never mid-word
        space = max(text.rfind(" ", lo, region_end + 1), text.rfind("\t", lo, region_end + 1))
        if space > start:
            return space
    return region_end  # one token longer than a piece: nothing better than a hard cut


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _overlap_start(text: str, end: int, overlap: int) -> int:
    """Where the next window starts: a sentence start ~`overlap` chars back, else a word start."""
    lo, hi = end - overlap - overlap // 7, end - overlap * 4 // 5
    for match in _SENTENCE_END.finditer(text, max(lo, 0), max(hi, 0)):
        if _is_sentence_end(text, match.end()):
            return _skip_space(text, match.end())
    target = max(end - overlap, 0)
    if target > 0 and not text[target - 1].isspace():  # mid-word: move to the next word
        while target < end and not text[target].isspace():
            target += 1
    return _skip_space(text, target)


def window_starts(text: str, low: int, high: int, overlap: int, slack: int = 0) -> Iterator[int]:
    """Starts of overlapping windows; each ends at `cut_point(text, start, low, high, slack)`."""
    start = _skip_space(text, 0)
    while start < len(text):
        yield start
        end = cut_point(text, start, low, high, slack)
        if end >= len(text):
            return
        following = _overlap_start(text, end, overlap) if overlap else _skip_space(text, end)
        start = following if following > start else _skip_space(text, end)


def split_long(text: str, limit: int) -> list[str]:
    """Cuts a block longer than `limit` into pieces of at most `limit` chars, no overlap."""
    if len(text) <= limit:
        return [text]
    pieces = []
    for start in window_starts(text, limit * 3 // 5, limit, 0):
        piece = text[start : cut_point(text, start, limit * 3 // 5, limit)].strip()
        if piece:
            pieces.append(piece)
    return pieces
