"""Loaders: every format to pages, clear errors for bad files, and budgets that stop a
document bomb while it is parsed."""

from __future__ import annotations

import io
import zipfile
import zlib
from collections import Counter
from pathlib import Path

import pytest
from docx import Document
from pypdf import PdfWriter, get_configuration

from ingestion.load_limits import Meter
from ingestion.loaders import (
    CorruptDocument,
    DocumentError,
    DocumentTooLarge,
    EmptyDocument,
    LoadBudget,
    LoadedPage,
    TooManyChunks,
    UnsupportedDocument,
    file_name,
    load_document,
)

_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def pdf_bytes(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF: one Helvetica text line per string, one page per list."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        ops = "BT /F1 11 Tf 14 TL 60 780 Td " + " ".join(f"({ln}) Tj T*" for ln in lines) + " ET"
        objects.append(_page_object(5 + 2 * i))
        objects.append(_stream_object(ops.encode("latin-1")))
    return _pdf_file(objects)


def pdf_sharing_one_stream(pages: int, operations_per_page: int) -> bytes:
    """The reviewer's bomb: every page draws the same FlateDecode content stream, so a few KiB
    make every page parse (and show) `operations_per_page / 5` one-letter strings again."""
    ops = b"BT /F1 12 Tf 10 10 Td (a) Tj ET\n" * (operations_per_page // 5)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(_stream_object(ops))
    objects.extend(_page_object(4) for _ in range(pages))
    return _pdf_file(objects)


def _page_object(content: int) -> bytes:
    return (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {content} 0 R "
        "/Resources << /Font << /F1 3 0 R >> >> >>".encode()
    )


def _stream_object(data: bytes) -> bytes:
    stream = zlib.compress(data, 9)
    return (
        f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
        + stream
        + b"\nendstream"
    )


def _pdf_file(objects: list[bytes]) -> bytes:
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


def docx_bomb(paragraphs: int, text: str = "a") -> bytes:
    """The reviewer's bomb: a bare DOCX of `paragraphs` identical tiny paragraphs (~35 bytes of
    XML each, compressing ~300:1)."""
    paragraph = f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"
    xml = f'<w:document xmlns:w="{_W_NS}"><w:body>{paragraph * paragraphs}</w:body></w:document>'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr("word/document.xml", xml)
    return buffer.getvalue()


def counting_budget(**caps: int) -> tuple[LoadBudget, Counter[str]]:
    """A budget with `caps` whose hook counts the pages and paragraphs actually read."""
    seen: Counter[str] = Counter()
    return LoadBudget(observe=lambda unit: seen.update([unit]), **caps), seen


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


# --- budgets: a document bomb stops while it is parsed -----------------------------------


def test_docx_bomb_stops_at_the_paragraph_cap() -> None:
    data = docx_bomb(100_000)  # 3.4 MiB of XML in a ~10 KiB upload
    budget, seen = counting_budget(max_paragraphs=1000)
    with pytest.raises(DocumentTooLarge) as caught:
        load_document(data, "bomb.docx", budget=budget)
    assert caught.value.code == "document_too_large"
    assert seen["paragraph"] == 1001  # stopped at the first paragraph over the cap


def test_docx_text_budget_stops_parsing_early() -> None:
    data = docx_bomb(10_000, text="x" * 100)
    budget, seen = counting_budget(max_chars=5000)
    with pytest.raises(TooManyChunks) as caught:
        load_document(data, "long.docx", budget=budget)
    assert caught.value.code == "too_many_chunks"
    assert seen["paragraph"] == 51


def test_docx_over_the_xml_cap_is_refused_before_any_paragraph() -> None:
    data = docx_bomb(60_000)  # ~2 MiB of XML
    budget, seen = counting_budget(max_xml_bytes=1 << 20)
    with pytest.raises(DocumentTooLarge, match="XML"):
        load_document(data, "bomb.docx", budget=budget)
    assert seen["paragraph"] == 0


def test_pdf_page_cap_is_checked_before_any_page_is_read() -> None:
    budget, seen = counting_budget(max_pages=3)
    with pytest.raises(DocumentTooLarge, match="pages"):
        load_document(pdf_bytes([["one"], ["two"], ["three"], ["four"]]), "a.pdf", budget=budget)
    assert seen["page"] == 0


@pytest.mark.parametrize(
    ("caps", "pages_read"),
    [({"max_operations": 10_000}, 6), ({"max_content_bytes": 100_000}, 8)],
)
def test_pdf_pages_sharing_one_stream_stop_early(caps: dict[str, int], pages_read: int) -> None:
    data = pdf_sharing_one_stream(pages=200, operations_per_page=2000)  # 2,000 ops, 13 KB a page
    budget, seen = counting_budget(**caps)
    with pytest.raises(DocumentTooLarge) as caught:
        load_document(data, "bomb.pdf", budget=budget)
    assert caught.value.code == "document_too_large"
    assert seen["page"] == pages_read  # not 200


def test_pdf_text_budget_stops_at_the_page_that_spends_it() -> None:
    data = pdf_sharing_one_stream(pages=50, operations_per_page=500)  # 100 letters a page
    budget, seen = counting_budget(max_chars=250)
    with pytest.raises(TooManyChunks):
        load_document(data, "bomb.pdf", budget=budget)
    assert seen["page"] == 3


def test_text_over_the_budget_is_too_many_chunks() -> None:
    with pytest.raises(TooManyChunks):
        load_document(b"word " * 1000, "long.txt", budget=LoadBudget(max_chars=4999))
    assert load_document(b"word " * 1000, "long.txt", budget=LoadBudget(max_chars=5000))


def test_without_a_budget_everything_is_read() -> None:
    """`warden ingest` (trusted files) passes no budget: large documents load whole."""
    [docx] = load_document(docx_bomb(60_000), "big.docx")
    assert docx.text.count("a") == 60_000
    pages = load_document(pdf_sharing_one_stream(pages=30, operations_per_page=2000), "big.pdf")
    assert [p.page for p in pages] == list(range(1, 31))


def test_a_generous_budget_changes_no_text() -> None:
    budget = LoadBudget.for_text(400_000, max_pages=500, max_xml_bytes=20 << 20, max_seconds=60)
    for data, name in [
        (docx_bytes(), "guide.docx"),
        (pdf_bytes([["First page."], ["Second page."]]), "guide.pdf"),
        (b"# Title\n\nBody", "notes.md"),
    ]:
        assert load_document(data, name, budget=budget) == load_document(data, name)
    assert get_configuration().xform_maximum_invocations_per_extraction == 5000  # reset


def test_meter_deadline_and_refusals_stick() -> None:
    now = [0.0]
    meter = Meter(LoadBudget(max_seconds=10, max_paragraphs=2), clock=lambda: now[0])
    meter.add("paragraphs")
    now[0] = 10.5
    with pytest.raises(DocumentTooLarge, match="10 s"):
        meter.add("paragraphs")
    capped = Meter(LoadBudget(max_operations=1))
    capped.add("operations")
    for _ in range(2):  # a caller that swallowed the first refusal is refused again
        with pytest.raises(DocumentTooLarge, match="operations"):
            capped.add("operations")
