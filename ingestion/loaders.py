"""Document loaders: PDF, DOCX, TXT and Markdown bytes -> a list of `LoadedPage`s.

PDFs give one `LoadedPage` per page (1-based `page`); the other formats give one page with
`page=None`. DOCX headings become Markdown heading lines (`## Title`) and tables become
`cell | cell` rows, so the chunker splits every format the same way. Errors are raised as
`UnsupportedDocument`, `CorruptDocument` or `EmptyDocument`, each with a stable `code`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docx.table import Table

SUPPORTED_EXTENSIONS = frozenset({".pdf", ".docx", ".txt", ".md", ".markdown"})


@dataclass(frozen=True)
class LoadedPage:
    text: str
    page: int | None  # 1-based page number for PDFs, None where a format has no pages


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


def file_name(filename: str) -> str:
    """The bare file name of a client-supplied name ('../a/b.pdf' or 'C:\\x\\b.pdf' -> 'b.pdf')."""
    return PurePosixPath(filename.replace("\\", "/")).name


def extension_of(filename: str) -> str:
    return PurePosixPath(file_name(filename)).suffix.lower()


def is_supported(filename: str) -> bool:
    return extension_of(filename) in SUPPORTED_EXTENSIONS


def load_document(source: Path | bytes, filename: str | None = None) -> list[LoadedPage]:
    """Loads a file from a path, or from `bytes` named by `filename` (its extension decides)."""
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
    pages = [LoadedPage(_tidy(p.text), p.page) for p in reader(data)]
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


def _read_text(data: bytes) -> list[LoadedPage]:
    if b"\x00" in data[:8192]:
        raise CorruptDocument("the text file looks binary (it contains NUL bytes)")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return [LoadedPage(data.decode(encoding), None)]
        except UnicodeDecodeError:
            continue
    raise CorruptDocument("the text file is neither UTF-8 nor Windows-1252 encoded")


def _read_pdf(data: bytes) -> list[LoadedPage]:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise CorruptDocument("the PDF is password-protected")
        return [
            LoadedPage(page.extract_text() or "", number)
            for number, page in enumerate(reader.pages, start=1)
        ]
    except CorruptDocument:
        raise
    except Exception as exc:  # pypdf raises many types on damaged files
        raise CorruptDocument(f"the PDF could not be read ({type(exc).__name__})") from exc


def _read_docx(data: bytes) -> list[LoadedPage]:
    from docx import Document
    from docx.table import Table

    try:
        document = Document(io.BytesIO(data))
        blocks: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                blocks.append(_table_text(block))
            else:
                blocks.append(_paragraph_text(block.text, block.style.name if block.style else ""))
    except Exception as exc:  # not a zip, missing parts, bad XML, ...
        raise CorruptDocument(f"the DOCX could not be read ({type(exc).__name__})") from exc
    return [LoadedPage("\n\n".join(b for b in blocks if b.strip()), None)]


def _paragraph_text(text: str, style: str) -> str:
    """Heading styles become Markdown headings so the chunker can split on them."""
    text = text.strip()
    if not text:
        return ""
    if style == "Title":
        return f"# {text}"
    match = re.fullmatch(r"Heading (\d)", style)
    if match:
        return f"{'#' * min(int(match.group(1)) + 1, 6)} {text}"
    return text


def _table_text(table: Table) -> str:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:
            value = " ".join(cell.text.split())
            if not cells or cells[-1] != value:  # merged cells repeat their text
                cells.append(value)
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


_READERS = {
    ".pdf": _read_pdf,
    ".docx": _read_docx,
    ".txt": _read_text,
    ".md": _read_text,
    ".markdown": _read_text,
}
