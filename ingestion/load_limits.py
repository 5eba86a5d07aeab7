"""Loader errors, and the work budget that stops parsing an untrusted document early.

A `LoadBudget` caps what a document may cost *while* it is parsed: extracted text, PDF pages,
page content and content operators, DOCX XML bytes and paragraphs, and (as a backstop) wall
time. A `Meter` counts against one budget and raises as soon as a count goes over, so a small
upload that expands to a huge document is refused after a bounded amount of work. `None`
means no cap: operator ingestion of trusted files (`warden ingest`) passes no budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


class DocumentError(Exception):
    """A document that cannot be indexed; `code` is a stable machine-readable reason."""

    code = "document_error"


class UnsupportedDocument(DocumentError):
    code = "unsupported_type"


class CorruptDocument(DocumentError):
    code = "corrupt_document"


class EmptyDocument(CorruptDocument):
    """Readable, but holds no text (e.g. a scanned PDF or an empty file)."""

    code = "empty_document"


class DocumentTooLarge(DocumentError):
    """The document is over a structural cap (pages, XML, content) or took too long to read."""

    code = "document_too_large"


class TooManyChunks(DocumentTooLarge):
    """The document holds more text than an upload may have chunks."""

    code = "too_many_chunks"


# Ratios from the text budget to the format caps: real PDFs here hold 1.5-5 bytes of page
# content and 0.1-0.2 content operators per extracted character; a DOCX paragraph averages
# far more than 8 characters. Each cap is a few times what a real document needs.
CONTENT_BYTES_PER_CHAR = 10
OPERATIONS_PER_CHAR = 0.5
CHARS_PER_PARAGRAPH = 8


@dataclass(frozen=True)
class LoadBudget:
    max_chars: int | None = None  # extracted text, all pages; over it -> TooManyChunks
    max_pages: int | None = None  # PDF pages, checked before any page is read
    max_content_bytes: int | None = None  # decoded PDF page content, summed over pages read
    max_operations: int | None = None  # PDF content operators run, forms included
    max_font_bytes: int | None = None  # PDF fonts set up (maps, widths), summed over pages
    max_xml_bytes: int | None = None  # DOCX main document XML, uncompressed
    max_paragraphs: int | None = None  # DOCX paragraphs, table cells' included
    max_seconds: float | None = None  # wall time: a backstop, not the main defence
    observe: Callable[[str], None] | None = None  # told each "page"/"paragraph" read (tests)

    @classmethod
    def for_text(
        cls,
        max_chars: int,
        *,
        max_pages: int | None = None,
        max_xml_bytes: int | None = None,
        max_seconds: float | None = None,
        observe: Callable[[str], None] | None = None,
    ) -> LoadBudget:
        """A budget whose format caps follow from the text cap."""
        return cls(
            max_chars=max_chars,
            max_pages=max_pages,
            max_content_bytes=max_chars * CONTENT_BYTES_PER_CHAR,
            max_operations=max(int(max_chars * OPERATIONS_PER_CHAR), 1000),
            max_font_bytes=max_chars * CONTENT_BYTES_PER_CHAR,
            max_xml_bytes=max_xml_bytes,
            max_paragraphs=max(max_chars // CHARS_PER_PARAGRAPH, 1000),
            max_seconds=max_seconds,
            observe=observe,
        )


UNLIMITED = LoadBudget()

# counter -> (budget field, message); the text counter raises TooManyChunks, others too-large
_CAPS = {
    "chars": ("max_chars", "the document has more than {} characters of text; split it up"),
    "pages": ("max_pages", "the PDF has more than {} pages; split it up"),
    "content": ("max_content_bytes", "the PDF's pages hold more than {} bytes of content"),
    "operations": ("max_operations", "the PDF's pages run more than {} drawing operations"),
    "fonts": ("max_font_bytes", "the PDF's fonts take more than {} bytes to set up"),
    "xml": ("max_xml_bytes", "the document's XML is larger than {} bytes"),
    "paragraphs": ("max_paragraphs", "the document has more than {} paragraphs"),
}


class Meter:
    """Counts one document's work against a budget; `add` raises once a count is over its cap
    (and again on every later call, so a caller that swallows the error cannot go on)."""

    def __init__(
        self, budget: LoadBudget | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.budget = budget or UNLIMITED
        self.counts: dict[str, int] = dict.fromkeys(_CAPS, 0)
        self._clock = clock
        seconds = self.budget.max_seconds
        self._deadline = None if seconds is None else clock() + seconds

    @property
    def limited(self) -> bool:
        return self.budget != UNLIMITED

    def expect(self, counter: str, total: int) -> None:
        """Refuses up front when a known total (e.g. a PDF's page count) is over its cap."""
        self._check(counter, total)

    def add(self, counter: str, amount: int = 1) -> None:
        self.counts[counter] += amount
        if self.budget.observe is not None and counter in ("pages", "paragraphs"):
            self.budget.observe(counter[:-1])
        self._check(counter, self.counts[counter])
        if self._deadline is not None and self._clock() > self._deadline:
            raise DocumentTooLarge(
                f"the document took more than {self.budget.max_seconds:g} s to read; split it up"
            )

    def _check(self, counter: str, total: int) -> None:
        field, message = _CAPS[counter]
        cap = getattr(self.budget, field)
        if cap is not None and total > cap:
            error = TooManyChunks if counter == "chars" else DocumentTooLarge
            raise error(message.format(cap))
