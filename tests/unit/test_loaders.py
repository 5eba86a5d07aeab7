"""Loaders: every format to pages, and clear errors for bad files."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pytest
from docx import Document
from pypdf import PdfWriter

from ingestion.loaders import (
    CorruptDocument,
    DocumentError,
    EmptyDocument,
    LoadedPage,
    UnsupportedDocument,
    file_name,
    load_document,
)


def pdf_bytes(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF: one Helvetica text line per string, one page per list."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        ops = "BT /F1 11 Tf 14 TL 60 780 Td " + " ".join(f"({ln}) Tj T*" for ln in lines) + " ET"
        stream = zlib.compress(ops.encode("latin-1"))
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {5 + 2 * i} 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(
            f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
            + stream
            + b"\nendstream"
        )
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def docx_bytes() -> bytes:
    document = Document()
    document.add_heading("Tenancy guide", level=0)
    document.add_heading("Deposits", level=1)
    document.add_paragraph("The deposit is refundable when the tenant leaves.")
    document.add_paragraph("")
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate([("Premises", "Deposit limit"), ("Residential", "Two months")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_heading("Eviction", level=2)
    document.add_paragraph("Eviction must follow the law.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_pdf_gives_one_page_each_with_numbers() -> None:
    data = pdf_bytes([["First page about FIR."], ["Second page about bail."]])
    pages = load_document(data, "guide.pdf")
    assert pages == [
        LoadedPage("First page about FIR.", 1),
        LoadedPage("Second page about bail.", 2),
    ]


def test_pdf_from_path(tmp_path: Path) -> None:
    path = tmp_path / "Guide.PDF"
    path.write_bytes(pdf_bytes([["Hello RTI"]]))
    assert load_document(path) == [LoadedPage("Hello RTI", 1)]


def test_docx_keeps_order_headings_and_tables() -> None:
    [page] = load_document(docx_bytes(), "guide.docx")
    assert page.page is None
    assert page.text.split("\n\n") == [
        "# Tenancy guide",
        "## Deposits",
        "The deposit is refundable when the tenant leaves.",
        "Premises | Deposit limit\nResidential | Two months",
        "### Eviction",
        "Eviction must follow the law.",
    ]


@pytest.mark.parametrize("name", ["notes.txt", "notes.md", "NOTES.MARKDOWN"])
def test_text_formats(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes("\ufeff# Title\r\n\r\n\r\n\r\nBody   \r\nline two".encode())
    assert load_document(path) == [LoadedPage("# Title\n\nBody\nline two", None)]


def test_text_falls_back_to_windows_1252() -> None:
    [page] = load_document(b"caf\xe9 \x93quoted\x94", "a.txt")
    assert page.text == "café “quoted”"


@pytest.mark.parametrize("name", ["tool.exe", "archive.zip", "README", "image.png"])
def test_unsupported_types_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsupportedDocument) as caught:
        load_document(b"whatever", name)
    assert caught.value.code == "unsupported_type"
    assert ".pdf" in str(caught.value)  # the message says what is accepted
    path = tmp_path / name
    path.write_bytes(b"whatever")
    with pytest.raises(UnsupportedDocument):
        load_document(path)


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"%PDF-1.4\nthis is not really a pdf", "broken.pdf"),
        (b"not a zip at all", "broken.docx"),
        (b"PK\x03\x04 truncated zip", "broken.docx"),
        (b"\x00\x01\x02binary", "binary.txt"),
    ],
)
def test_corrupt_files_raise_corrupt_document(data: bytes, name: str) -> None:
    with pytest.raises(CorruptDocument) as caught:
        load_document(data, name)
    assert caught.value.code == "corrupt_document"
    assert isinstance(caught.value, DocumentError)


def test_truncated_pdf_is_corrupt() -> None:
    data = pdf_bytes([["Some text"]])
    with pytest.raises(CorruptDocument):
        load_document(data[: len(data) // 3], "cut.pdf")


def test_documents_without_text_are_empty() -> None:
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    buffer = io.BytesIO()
    writer.write(buffer)
    for data, name in [(buffer.getvalue(), "scan.pdf"), (b"  \n\n ", "empty.txt")]:
        with pytest.raises(EmptyDocument) as caught:
            load_document(data, name)
        assert caught.value.code == "empty_document"


def test_bytes_need_a_file_name() -> None:
    with pytest.raises(TypeError):
        load_document(b"text")


@pytest.mark.parametrize(
    ("given", "expected"),
    [("../../etc/a.pdf", "a.pdf"), ("C:\\Users\\x\\Notes.docx", "Notes.docx"), ("b.md", "b.md")],
)
def test_file_name_strips_client_paths(given: str, expected: str) -> None:
    assert file_name(given) == expected
