"""Pure checks on an uploaded file before any parsing: a safe display name, and a content sniff
that must agree with the extension (a `.pdf` starts with `%PDF-`, a `.docx` is a zip holding
`word/document.xml`, a `.txt`/`.md` is text). A DOCX whose archive or main XML declares more
than the caps is refused from its zip directory alone (the loader enforces the same XML cap
on the bytes it actually inflates). Failures raise the loaders' DocumentErrors."""

from __future__ import annotations

import io
import unicodedata
import zipfile
from pathlib import PurePosixPath

from ingestion.loaders import (
    DocumentError,
    DocumentTooLarge,
    EmptyDocument,
    UnsupportedDocument,
    extension_of,
    file_name,
    is_supported,
)

MAX_NAME_CHARS = 120
PDF_MAGIC_WINDOW = 1024  # the PDF header may follow a little junk (readers allow 1 KiB)
ZIP_MAGIC = b"PK\x03\x04"
# First bytes of common binary formats that must never pass as text.
_BINARY_MAGIC = (b"%PDF-", ZIP_MAGIC, b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"\x7fELF", b"MZ")


class UploadTooLarge(DocumentError):
    """The file, or what it expands to, is over a size limit."""

    code = "upload_too_large"


def clean_file_name(raw: str | None) -> str:
    """The bare name with no path, control or invisible formatting characters (e.g. the
    right-to-left override that disguises `exe.txt`), whitespace collapsed, at most
    MAX_NAME_CHARS long with its extension kept."""
    name = unicodedata.normalize("NFC", file_name(raw or ""))
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))
    name = " ".join(name.split())
    if len(name) <= MAX_NAME_CHARS:
        return name
    suffix = PurePosixPath(name).suffix
    suffix = suffix if len(suffix) <= 16 else ""
    return name[: MAX_NAME_CHARS - len(suffix)].rstrip(" .") + suffix


def check_upload(
    data: bytes, name: str, *, max_expanded_bytes: int, max_xml_bytes: int | None = None
) -> None:
    """Raises UnsupportedDocument (wrong extension, or content that is not what it claims),
    EmptyDocument (no bytes), UploadTooLarge (a DOCX archive that inflates past
    `max_expanded_bytes`) or DocumentTooLarge (its word/document.xml is over `max_xml_bytes`)."""
    if not is_supported(name):
        raise UnsupportedDocument(_unsupported(name))
    if not data:
        raise EmptyDocument(f"{name!r} is empty")
    extension = extension_of(name)
    if extension == ".pdf":
        if b"%PDF-" not in data[:PDF_MAGIC_WINDOW]:
            raise UnsupportedDocument("the file is named .pdf but is not a PDF")
    elif extension == ".docx":
        _check_docx(data, max_expanded_bytes, max_xml_bytes)
    elif data.startswith(_BINARY_MAGIC) or b"\x00" in data[:8192]:
        raise UnsupportedDocument(f"the file is named {extension} but is not text")


def _check_docx(data: bytes, max_expanded_bytes: int, max_xml_bytes: int | None) -> None:
    if not data.startswith(ZIP_MAGIC):
        raise UnsupportedDocument("the file is named .docx but is not a Word document")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # a damaged zip: the loader reports it as corrupt_document
    main = next((entry for entry in entries if entry.filename == "word/document.xml"), None)
    if main is None:
        raise UnsupportedDocument("the file is named .docx but is not a Word document")
    if sum(entry.file_size for entry in entries) > max_expanded_bytes:
        raise UploadTooLarge(f"the document expands to more than {max_expanded_bytes} bytes")
    if max_xml_bytes is not None and main.file_size > max_xml_bytes:
        raise DocumentTooLarge(f"the document's XML is larger than {max_xml_bytes} bytes")


def _unsupported(name: str) -> str:
    shown = extension_of(name) or "(no extension)"
    return f"file type {shown} is not supported; upload a PDF, DOCX, TXT or Markdown file"
