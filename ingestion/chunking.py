"""Parent/child splitting (SPEC section 2).

Parents: sections of roughly 1,500-2,000 characters, built from whole blocks (headings and
paragraphs). A heading starts a new parent once the current one is big enough; smaller
sections are merged; a block longer than a parent is cut at sentence or word boundaries.
Children: windows of roughly 300-400 characters over one parent, ending at a sentence end where
one is near (else at a space), each starting ~60-80 characters before the previous one ended.
Ids are uuid5 of (doc id, index, text hash): stable across runs and machines.
Contextual header: each child carries its document's title (a heading that opens the document)
and its section's heading (the first heading in its parent, else the last one before it), which
ingestion/points.py puts before the child's text in what is embedded and sparse-encoded.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from ingestion.loaders import LoadedPage
from ingestion.text_windows import cut_point, split_long, window_starts

_ID_NAMESPACE = uuid.UUID("0b7c5c2e-7d51-4f63-9d0e-3a2f4c9e8b11")  # fixed forever: ids depend on it
_HEADING = re.compile(r"^#{1,6}\s+\S")
_TITLE_LINE = re.compile(r"[A-Z0-9][^\n]{0,78}[^.,;:!\s]")  # a short line with no end punctuation


@dataclass(frozen=True)
class ChunkSizes:
    parent_max: int = 2000
    parent_min: int = 1400  # a heading starts a new parent only once the current one is this big
    child_max: int = 400
    child_min: int = 300
    overlap: int = 70


@dataclass(frozen=True)
class Parent:
    id: str
    index: int
    text: str
    page: int | None
    heading: str = ""  # the section's heading, "" when there is none


@dataclass(frozen=True)
class Child:
    id: str
    index: int  # position within the document
    text: str
    parent_id: str
    parent_text: str
    page: int | None
    header: str = ""  # "title > section heading" (either may be missing), for the indexed text


@dataclass(frozen=True)
class _Block:
    text: str
    page: int | None
    heading: bool


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stable_id(*parts: object) -> str:
    return str(uuid.uuid5(_ID_NAMESPACE, "\x1f".join(str(p) for p in parts)))


def split_document(
    doc_id: str, pages: Sequence[LoadedPage], sizes: ChunkSizes = ChunkSizes()
) -> list[Child]:
    """All children of a document, in reading order; each carries its parent's id and text."""
    children: list[Child] = []
    parents = split_parents(doc_id, pages, sizes)
    opening = _heading_text(parents[0].text.split("\n\n", 1)[0]) if parents else ""
    title = opening if parents and opening == parents[0].heading else ""
    for parent in parents:
        offset = 0
        for text in split_children(parent.text, sizes):
            offset = max(parent.text.find(text, offset), offset)
            section = _section_at(parent.text, offset) or parent.heading
            header = " > ".join(dict.fromkeys(h for h in (title, section) if h))
            index = len(children)
            child_id = stable_id(doc_id, "child", index, text_hash(text), parent.id)
            children.append(
                Child(child_id, index, text, parent.id, parent.text, parent.page, header)
            )
    return children


def _heading_text(block: str) -> str:
    return " ".join(block.lstrip("#").split())


def _is_heading(block: str) -> bool:
    return bool(_HEADING.match(block) or _TITLE_LINE.fullmatch(block))


def _section_at(text: str, offset: int) -> str:
    """The last heading block of `text` that starts at or before `offset` ("" if none)."""
    found, start = "", 0
    for gap in [*re.finditer(r"\n\s*\n", text), None]:
        end = gap.start() if gap else len(text)
        if start > offset:
            break
        block = text[start:end].strip()
        if block and _is_heading(block):
            found = _heading_text(block)
        start = gap.end() if gap else len(text)
    return found


def split_parents(
    doc_id: str, pages: Sequence[LoadedPage], sizes: ChunkSizes = ChunkSizes()
) -> list[Parent]:
    texts: list[tuple[str, int | None]] = []
    headings: list[str] = []
    current: list[_Block] = []
    last_heading = ""

    def flush(*, final: bool = False) -> None:
        nonlocal last_heading
        carry = not final and len(current) > 1 and current[-1].heading
        carried = [current.pop()] if carry else []
        if current:  # a heading never ends a parent: it moves on with its section
            texts.append(("\n\n".join(b.text for b in current), current[0].page))
            own = [_heading_text(b.text) for b in current if b.heading]
            headings.append(own[0] if own else last_heading)
            last_heading = own[-1] if own else last_heading
        current[:] = carried

    for block in _blocks(pages, sizes.parent_max):
        size = sum(len(b.text) + 2 for b in current)
        new_section = block.heading or (bool(current) and block.page != current[-1].page)
        too_big = size + len(block.text) > sizes.parent_max and not all(b.heading for b in current)
        if (new_section and size >= sizes.parent_min) or too_big:
            flush()
        current.append(block)
    flush(final=True)
    small_tail = len(texts) > 1 and len(texts[-1][0]) < sizes.parent_min // 2
    if small_tail and len(texts[-1][0]) + len(texts[-2][0]) <= sizes.parent_max * 6 // 5:
        tail, _ = texts.pop()
        texts[-1] = (texts[-1][0] + "\n\n" + tail, texts[-1][1])
        headings.pop()
    return [
        Parent(stable_id(doc_id, "parent", i, text_hash(text)), i, text, page, heading)
        for i, ((text, page), heading) in enumerate(zip(texts, headings, strict=True))
    ]


def split_children(text: str, sizes: ChunkSizes = ChunkSizes()) -> list[str]:
    """Overlapping windows over one parent's text; a short parent is a single child."""
    pieces = []
    low, high, slack = sizes.child_min, sizes.child_max, sizes.child_max // 5
    for start in window_starts(text, low, high, sizes.overlap, slack):
        end = cut_point(text, start, low, high, slack)
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
    return pieces


def _blocks(pages: Sequence[LoadedPage], limit: int) -> list[_Block]:
    """Paragraph-level blocks (blank-line separated), headings marked, long ones cut."""
    blocks: list[_Block] = []
    for page in pages:
        for raw in re.split(r"\n\s*\n", page.text):
            paragraph = raw.strip()
            if not paragraph:
                continue
            heading = _is_heading(paragraph)
            if heading and "\n" in paragraph:  # "## Title\nbody..." without a blank line
                title, body = paragraph.split("\n", 1)
                blocks.append(_Block(title, page.page, True))
                paragraph, heading = body.strip(), False
            for piece in split_long(paragraph, limit):
                blocks.append(_Block(piece, page.page, heading))
                heading = False
    return blocks
