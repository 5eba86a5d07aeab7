"""Document loaders: PDF, DOCX, TXT and Markdown bytes -> a list of `LoadedPage`s.

PDFs give one `LoadedPage` per page (1-based `page`); the other formats give one page with
`page=None`. DOCX headings become Markdown heading lines (`## Title`) and tables become
`cell | cell` rows, so the chunker splits every format the same way. Errors are raised as
`UnsupportedDocument`, `CorruptDocument`, `EmptyDocument` or (over a `LoadBudget`)
`DocumentTooLarge` / `TooManyChunks`, each with a stable `code`. Untrusted uploads pass a
budget, which stops parsing as soon as it is spent; trusted core files (`warden ingest`) don't.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ingestion.docx_text import read_docx
from ingestion.load_limits import (
    CorruptDocument,
    DocumentError,
    DocumentTooLarge,
    EmptyDocument,
    LoadBudget,
    Meter,
    TooManyChunks,
    UnsupportedDocument,
)
from ingestion.pdf_text import read_pdf

__all__ = [
    "SUPPORTED_EXTENSIONS",
    "CorruptDocument",
    "DocumentError",
    "DocumentTooLarge",
    "EmptyDocument",
    "LoadBudget",
    "LoadedPage",
    "TooManyChunks",
    "UnsupportedDocument",
    "extension_of",
    "file_name",
    "is_supported",
    "load_document",
]

SUPPORTED_EXTENSIONS = frozenset({".pdf", ".docx", ".txt", ".md", ".markdown"})


@dataclass(frozen=True)
class LoadedPage:
    text: str
    page: int | None  # 1-based page number for PDFs, None where a format has no pages


def file_name(filename: str) -> str:
    """The bare file name of a client-supplied name ('../a/b.pdf' or 'C:\\x\\b.pdf' -> 'b.pdf')."""
    return PurePosixPath(filename.replace("\\", "/")).name


def extension_of(filename: str) -> str:
    return PurePosixPath(file_name(filename)).suffix.lower()


def is_supported(filename: str) -> bool:
    return extension_of(filename) in SUPPORTED_EXTENSIONS


def load_document(
    source: Path | bytes, filename: str | None = None, *, budget: LoadBudget | None = None
) -> list[LoadedPage]:
    """Loads a file from a path, or from `bytes` named by `filename` (its extension decides).
    With a `budget`, parsing stops with DocumentTooLarge/TooManyChunks once it is spent."""
    if isinstance(source, bytes):
        if filename is None:
            raise TypeError("load_document(bytes) needs a filename")
        data, name = source, filename
    else:
        name = filename or source.name
        if not is_supported(name):  # refuse before reading a possibly huge file
            raise UnsupportedDocument(_unsupported_message(name))
        data = source.read_bytes()
    extension = extension_of(name)
    reader = _READERS.get(extension)
    if reader is None:
        raise UnsupportedDocument(_unsupported_message(name))
    pages = [LoadedPage(_tidy(text), page) for text, page in reader(data, Meter(budget))]
    pages = [p for p in pages if p.text]
    if not pages:
        raise EmptyDocument(f"{file_name(name)!r} contains no extractable text")
    return pages


def _unsupported_message(name: str) -> str:
    shown = extension_of(name) or "(no extension)"
    allowed = ", ".join(sorted(SUPPORTED_EXTENSIONS))
    return f"file type {shown} is not supported; use one of {allowed}"


def _tidy(text: str) -> str:
    """Normalises line endings and blank runs; keeps paragraph breaks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = re.sub(r"[ \t\f\v]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _read_text(data: bytes, meter: Meter) -> list[tuple[str, int | None]]:
    if b"\x00" in data[:8192]:
        raise CorruptDocument("the text file looks binary (it contains NUL bytes)")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        meter.add("chars", len(text))
        return [(text, None)]
    raise CorruptDocument("the text file is neither UTF-8 nor Windows-1252 encoded")


def _read_docx(data: bytes, meter: Meter) -> list[tuple[str, int | None]]:
    return [(read_docx(data, meter), None)]


_Reader = Callable[[bytes, Meter], list[tuple[str, int | None]]]
_READERS: dict[str, _Reader] = {
    ".pdf": read_pdf,
    ".docx": _read_docx,
    ".txt": _read_text,
    ".md": _read_text,
    ".markdown": _read_text,
}
