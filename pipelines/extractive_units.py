"""A passage read as an answer's candidate units: prose sentences, list items, glossary entries.

Lines are put back together first (a PDF wraps a sentence over several lines; a Markdown list
puts one item on each), headings, quoted notes and table rows are set aside, and a sentence that
ends with a colon becomes the intro of the list items after it. An item that is a fragment
("a woman or a child;") is read with its intro ("You are entitled to free legal services if you
are: a woman or a child."); a whole-sentence item keeps its intro as `lead` for the answer line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipelines.extractive_text import (
    as_clause,
    ends_sentence,
    ends_with_colon,
    is_heading_line,
    plain,
    split_prose,
    stands_alone,
)

MAX_UNIT_CHARS = 420  # a longer item or entry is cut into its sentences
MAX_SENTENCE_CHARS = 600  # a longer sentence is shortened at a word, marked with "..."
MAX_PER_PASSAGE = 30
SCORED_CHARS = 200  # about as long as the sentences embedded before units (~40 tokens)
_ITEM = re.compile(r"^(?:[-*•+]|(\d{1,2})[.)])\s+(\S.*)$")
_ENTRY = re.compile(r"^[A-Z0-9][\w’'&/().,-]*(?: [\w’'&/().,-]+){0,3}:\s+\S")
_SKIPPED = re.compile(r"^(>|\|)|\S\s*\|\s*\S.*\|")  # quoted notes, table rows (Markdown, DOCX)


@dataclass(frozen=True)
class Sentence:
    """One answer line's worth of text, from passage `citation` (1-based).

    List items carry their list's `group` (unique within an answer), their `marker` ("2." for
    a numbered step) and the list's intro as `lead` unless `text` already reads it in."""

    text: str
    citation: int
    group: int | None = None
    marker: str = ""
    lead: str = ""
    joined: bool = False  # a fragment item: `text` is its intro and itself as one sentence
    section: str = field(default="", compare=False)  # the heading above it, if any

    @property
    def scored_text(self) -> str:
        """What the question is compared with: the unit (an item with its intro), its first
        sentences only past `SCORED_CHARS` (embedding cost grows with the length)."""
        context = self.lead or (self.section if self.group is not None else "")
        text = f"{context} {self.text}" if context and not self.joined else self.text
        if len(text) <= SCORED_CHARS:
            return text
        head = ""
        for sentence in split_prose(text):
            if head and len(head) + len(sentence) >= SCORED_CHARS:
                break
            head = f"{head} {sentence}".strip()
        return head

    @property
    def clause(self) -> str:
        """A joined item without its intro: what follows the intro in a merged line."""
        return as_clause(self.text[len(self.lead) :]) if self.joined else as_clause(self.text)


@dataclass
class _Piece:
    kind: str  # heading, prose, item, entry
    text: str
    marker: str = ""


def pieces_of(passage: str) -> list[_Piece]:
    """Headings, prose paragraphs, list items and 'TERM: ...' entries, lines rejoined."""
    found: list[_Piece] = []
    for block in re.split(r"\n\s*\n", passage):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        current: _Piece | None = None
        for i, line in enumerate(lines):
            item = _ITEM.match(line)
            after_stop = current is None or ends_sentence(current.text)
            continued = i + 1 < len(lines) and lines[i + 1][:1].islower()
            if _SKIPPED.search(line):
                current = None
            elif item:
                number = item.group(1)
                current = _Piece("item", item.group(2), f"{number}." if number else "")
                found.append(current)
            elif after_stop and not continued and is_heading_line(line):
                found.append(_Piece("heading", line.lstrip("# ")))
                current = None
            elif current is None or (after_stop and _ENTRY.match(line)):
                current = _Piece("entry" if _ENTRY.match(line) else "prose", line)
                found.append(current)
            else:
                current.text = f"{current.text} {line}"
    for piece in found:
        piece.text = plain(" ".join(piece.text.split()))
    return found


def _shortened(sentence: str) -> str:
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    return sentence[:MAX_SENTENCE_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " ..."


def _sentences(text: str) -> list[str]:
    return [_shortened(s) for s in split_prose(text)]


def _item_units(
    piece: _Piece, intro: str, citation: int, group: int, section: str
) -> list[Sentence]:
    text = piece.text if ends_sentence(piece.text) else f"{as_clause(piece.text)}."
    if piece.text[:1].islower() and intro:  # a fragment: read it with its intro
        joined = f"{intro} {as_clause(piece.text)}."
        unit = Sentence(joined, citation, group, piece.marker, intro, True, section)
        return [unit] if stands_alone(joined) else []
    parts = [text] if len(text) <= MAX_UNIT_CHARS else _sentences(text)
    units = [
        Sentence(part, citation, group, piece.marker if n == 0 else "", intro, section=section)
        for n, part in enumerate(parts)
    ]
    return [u for u in units if stands_alone(u.text) or (u.marker and len(u.text.split()) >= 3)]


class _Groups:
    """Numbers the lists of an answer's passages; a list's id is unique across passages."""

    def __init__(self) -> None:
        self.next = 0

    def new(self) -> int:
        self.next += 1
        return self.next


def passage_units(passage: str, citation: int, groups: _Groups) -> list[Sentence]:
    units: list[Sentence] = []
    intro, group, section = "", None, ""
    for piece in pieces_of(passage):
        in_list = group is not None or bool(intro)
        loose = piece.text[:1].islower() or piece.kind == "entry"  # DOCX items lose their marks
        listed = piece.kind == "item" or (in_list and loose)
        if listed:
            group = group or groups.new()
            units.extend(_item_units(piece, intro, citation, group, section))
            continue
        intro, group = "", None
        if piece.kind == "heading":
            section = piece.text
            continue
        if piece.kind == "entry" and len(piece.text) <= MAX_UNIT_CHARS:
            sentences = [piece.text]
        else:
            sentences = _sentences(piece.text)
        if sentences and ends_with_colon(sentences[-1]):
            intro = sentences.pop()
        units.extend(Sentence(s, citation, section=section) for s in sentences if stands_alone(s))
    return units[:MAX_PER_PASSAGE]


def split_units(passages: Sequence[str]) -> list[Sentence]:
    """The candidate units of each passage, in reading order."""
    groups = _Groups()
    found: list[Sentence] = []
    for number, passage in enumerate(passages, start=1):
        found.extend(passage_units(passage, number, groups))
    return found
