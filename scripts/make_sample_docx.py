"""Builds the DOCX (and one PDF) documents of sample_kb/ from scripts/sample_sources/.

Run from the repository root: `python scripts/make_sample_docx.py`. The outputs are committed;
re-run after editing a source. Source markup: `# title`, `## heading`, `> note`, `- bullet`,
`1. step`, `| table | rows |`, blank-line separated paragraphs, `**bold**` and `*italic*`.
The PDF is written by a tiny built-in writer (Helvetica, no extra dependency).
"""

from __future__ import annotations

import io
import re
import sys
import zipfile
import zlib
from datetime import datetime
from pathlib import Path

from docx import Document
from docx.text.paragraph import Paragraph

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "sample_sources"
OUT = ROOT / "sample_kb"
PDF_SOURCES = {"legal-aid-glossary.txt"}
FIXED_TIME = datetime(2025, 1, 1)
_INLINE = re.compile(r"(\*\*[^*]+\*\*|\*[^*]+\*)")


def _add_runs(paragraph: Paragraph, text: str) -> None:
    for part in _INLINE.split(text):
        if part.startswith("**") and part.endswith("**"):
            paragraph.add_run(part[2:-2]).bold = True
        elif part.startswith("*") and part.endswith("*") and len(part) > 1:
            paragraph.add_run(part[1:-1]).italic = True
        elif part:
            paragraph.add_run(part)


def build_docx(source: Path, target: Path) -> None:
    document = Document()
    document.core_properties.title = source.stem
    document.core_properties.author = "Warden sample knowledge base"
    document.core_properties.created = document.core_properties.modified = FIXED_TIME
    document.core_properties.revision = 1
    blocks = [b.strip() for b in source.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    for block in blocks:
        lines = block.splitlines()
        if block.startswith("# "):
            document.add_heading(block[2:], level=0)
        elif block.startswith("## "):
            document.add_heading(block[3:], level=1)
        elif block.startswith("> "):
            _add_runs(document.add_paragraph(style="Intense Quote"), block[2:])
        elif block.startswith("| "):
            rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
            rows = [r for r in rows if not all(set(c) <= {"-", " "} for c in r)]
            table = document.add_table(rows=len(rows), cols=len(rows[0]), style="Table Grid")
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
        elif all(ln.startswith(("- ", "1. ", "2. ", "3. ", "4. ", "5. ", "6. ")) for ln in lines):
            for line in lines:
                numbered = line[0].isdigit()
                style = "List Number" if numbered else "List Bullet"
                _add_runs(document.add_paragraph(style=style), line.split(" ", 1)[1])
        else:
            _add_runs(document.add_paragraph(), " ".join(lines))
    buffer = io.BytesIO()
    document.save(buffer)
    target.write_bytes(_reproducible_zip(buffer.getvalue()))


def _reproducible_zip(data: bytes) -> bytes:
    """The same package with fixed entry timestamps: rebuilding gives byte-identical files."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=(2025, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, source.read(item.filename))
    return out.getvalue()


def _pdf_lines(text: str, width: int = 92) -> list[tuple[str, bool]]:
    """(line, is_heading) pairs, wrapped at `width` characters, blank lines kept."""
    lines: list[tuple[str, bool]] = []
    for block in text.split("\n\n"):
        heading = block.startswith("#")
        words, line = block.lstrip("# ").split(), ""
        for word in words:
            if line and len(line) + 1 + len(word) > width:
                lines.append((line, heading))
                line = word
            else:
                line = f"{line} {word}".strip()
        lines += [(line, heading), ("", False)]
    return lines


def build_pdf(source: Path, target: Path, per_page: int = 48) -> None:
    """A minimal valid PDF: one Helvetica content stream per page, with a cross-reference."""
    lines = _pdf_lines(source.read_text(encoding="utf-8"))
    pages = [lines[i : i + per_page] for i in range(0, len(lines), per_page)]
    objects: list[bytes] = []  # object n is objects[n - 1]
    kids = " ".join(f"{5 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    for number, page in enumerate(pages):
        ops = ["BT", "14 TL", "56 790 Td"]
        for line, heading in page:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"/{'F2' if heading else 'F1'} 10 Tf ({escaped}) Tj T*")
        ops.append("ET")
        stream = zlib.compress("\n".join(ops).encode("latin-1"))
        content = 6 + 2 * number
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {content} 0 R "
            "/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>".encode()
        )
        head = f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode()
        objects.append(head + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    out += trailer.encode()
    target.write_bytes(bytes(out))


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for source in sorted(SOURCES.iterdir()):
        if source.name in PDF_SOURCES:
            build_pdf(source, OUT / f"{source.stem}.pdf")
        elif source.suffix == ".md":
            build_docx(source, OUT / f"{source.stem}.docx")
        else:
            continue
        print(f"built sample_kb/{source.stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
