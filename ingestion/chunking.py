"""Parent/child splitting (SPEC section 2).

Parents: sections of roughly 1,500-2,000 characters, built from whole blocks (headings and
paragraphs). A heading starts a new parent once the current one is big enough; smaller
sections are merged; a block longer than a parent is cut at sentence or word boundaries.
Children: windows of roughly 300-400 characters over one parent, ending at a sentence end where
one is near (else at a space), each starting ~60-80 characters before the previous one ended.
Ids are uuid5 of (doc id, index, text hash): stable across runs and machines.
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


@dataclass(frozen=True)
class Child:
    id: str
    index: int  # position within the document
    text: str
    parent_id: str
    parent_text: str
    page: int | None


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
    for parent in split_parents(doc_id, pages, sizes):
        for text in split_children(parent.text, sizes):
            index = len(children)
            child_id = stable_id(doc_id, "child", index, text_hash(text), parent.id)
            children.append(Child(child_id, index, text, parent.id, parent.text, parent.page))
    return children


def split_parents(
    doc_id: str, pages: Sequence[LoadedPage], sizes: ChunkSizes = ChunkSizes()
) -> list[Parent]:
    texts: list[tuple[str, int | None]] = []
    current: list[_Block] = []

    def flush(*, final: bool = False) -> None:
        carry = not final and len(current) > 1 and current[-1].heading
        carried = [current.pop()] if carry else []
        if current:  # a heading never ends a parent: it moves on with its section
            texts.append(("\n\n".join(b.text for b in current), current[0].page))
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
    return [
        Parent(stable_id(doc_id, "parent", i, text_hash(text)), i, text, page)
        for i, (text, page) in enumerate(texts)
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
            heading = bool(_HEADING.match(paragraph) or _TITLE_LINE.fullmatch(paragraph))
            if heading and "\n" in paragraph:  # "## Title\nbody..." without a blank line
                title, body = paragraph.split("\n", 1)
                blocks.append(_Block(title, page.page, True))
                paragraph, heading = body.strip(), False
            for piece in split_long(paragraph, limit):
                blocks.append(_Block(piece, page.page, heading))
                heading = False
    return blocks
