"""DOCX bytes -> Markdown-ish text, streamed so that a zip bomb is refused early.

The main document XML is read from the zip in small pieces through lxml's pull parser (with
python-docx's element classes, so paragraph text follows python-docx exactly); each body
paragraph or table is turned into text as soon as it ends and then dropped, and every XML
byte, paragraph and character is charged to the meter as it is read. Heading styles become
`#` headings, tables `cell | cell` rows (as before with python-docx's Document).
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterator

from lxml import etree

from ingestion.load_limits import CorruptDocument, DocumentError, DocumentTooLarge, Meter

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_BODY, _P, _TBL, _TR = (f"{_W}{tag}" for tag in ("body", "p", "tbl", "tr"))
_R, _LINK = f"{_W}r", f"{_W}hyperlink"
_RUN_ITEMS = tuple(f"{_W}{tag}" for tag in ("br", "cr", "noBreakHyphen", "ptab", "t", "tab"))
_MAIN_DOCUMENT = "word/document.xml"
_PIECE = 64 * 1024  # bytes of XML fed to the parser at a time
_ON = {"1", "true", "on"}
_MAX_HELD_TAGS = 1 << 18  # XML tags held in memory between two drops, under a budget (~30 MB)
_MAX_COLUMNS = 64  # Word's own limit is 63 columns; a wider span is not followed further


def read_docx(data: bytes, meter: Meter) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            main = _target(archive, "_rels/.rels", "/officeDocument", "") or _MAIN_DOCUMENT
            styles_part = _target(archive, _rels_of(main), "/styles", posixpath.dirname(main))
            styles = _paragraph_styles(_small_xml(archive, styles_part, meter))
            blocks = list(_blocks(archive, main, styles, meter))
    except DocumentError:
        raise
    except Exception as exc:  # not a zip, missing parts, bad XML, ...
        raise CorruptDocument(f"the DOCX could not be read ({type(exc).__name__})") from exc
    return "\n\n".join(b for b in blocks if b.strip())


def _parser(*, pull: bool = False) -> etree.XMLParser:
    """No entities, no network; python-docx's element classes (CT_P.text and friends)."""
    from docx.oxml.parser import element_class_lookup

    options = {"remove_blank_text": True, "resolve_entities": False, "no_network": True}
    parser = (
        etree.XMLPullParser(events=("end",), tag=(_P, _TR, _TBL), **options)
        if pull
        else etree.XMLParser(**options)
    )
    parser.set_element_class_lookup(element_class_lookup)
    return parser


def _small_xml(archive: zipfile.ZipFile, name: str | None, meter: Meter) -> etree._Element | None:
    """A small part (relationships, styles), charged to the XML budget before it is read."""
    if name is None or name not in archive.namelist():
        return None
    meter.add("xml", archive.getinfo(name).file_size)
    return etree.fromstring(archive.read(name), _parser())


def _rels_of(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{name}.rels")


def _target(archive: zipfile.ZipFile, rels: str, kind: str, base: str) -> str | None:
    """The part a relationship of `kind` points to, as a zip member name."""
    if rels not in archive.namelist() or archive.getinfo(rels).file_size > 1 << 20:
        return None
    for rel in etree.fromstring(archive.read(rels), _parser()).iter(_RELS):
        if rel.get("Type", "").endswith(kind) and rel.get("TargetMode") != "External":
            target = rel.get("Target", "")
            path = target[1:] if target.startswith("/") else posixpath.join(base, target)
            return posixpath.normpath(path)
    return None


def _paragraph_styles(root: etree._Element | None) -> tuple[dict[str, str], str]:
    """Paragraph style id -> UI name, and the default paragraph style's name (python-docx's
    rules: the first style with the id; a missing or non-paragraph one means the default)."""
    from docx.styles import BabelFish

    names: dict[str, str] = {}
    seen: set[str] = set()
    default = ""
    for style in root.iterfind(f"{_W}style") if root is not None else ():
        style_id, name_element = style.get(f"{_W}styleId"), style.find(f"{_W}name")
        raw_name = name_element.get(f"{_W}val", "") if name_element is not None else ""
        name = BabelFish.internal2ui(raw_name)
        is_paragraph = style.get(f"{_W}type") == "paragraph"
        if style_id is not None and style_id not in seen:
            seen.add(style_id)
            if is_paragraph:
                names[style_id] = name
        if is_paragraph and style.get(f"{_W}default", "0").lower() in _ON:
            default = name
    return names, default


def _blocks(
    archive: zipfile.ZipFile, main: str, styles: tuple[dict[str, str], str], meter: Meter
) -> Iterator[str]:
    meter.expect("xml", meter.counts["xml"] + archive.getinfo(main).file_size)
    reader, parser = _BodyReader(styles, meter), _parser(pull=True)
    with archive.open(main) as stream:
        while piece := stream.read(_PIECE):
            meter.add("xml", len(piece))
            parser.feed(piece)
            yield from reader.read(parser, piece.count(b"<"))
    parser.close()
    yield from reader.read(parser, 0)


class _BodyReader:
    """Turns the body's paragraphs and tables into text as they end, and drops what it read.
    Tables are read row by row. Under a budget, the XML held between two drops (one paragraph,
    one table row, or whatever else sits between them) may not exceed _MAX_HELD_TAGS."""

    def __init__(self, styles: tuple[dict[str, str], str], meter: Meter) -> None:
        self.names, self.default = styles
        self.meter = meter
        self.rows: list[str] = []
        self.above: dict[int, str] = {}  # grid column -> text, for vertically merged cells
        self.held = 0

    def read(self, parser: etree.XMLPullParser, tags: int) -> Iterator[str]:
        dropped = False
        for _, element in parser.read_events():
            block = self._ended(element)
            if block is not _KEEP:
                dropped = True
                _drop(element)
                if block:
                    yield block
        self.held = 0 if dropped else self.held + tags
        if self.meter.limited and self.held > _MAX_HELD_TAGS:
            raise DocumentTooLarge("a paragraph or table row of the document is too large")

    def _ended(self, element: etree._Element) -> str | None:
        """The block's text ("" if none) once it can be dropped, else _KEEP."""
        parent = element.getparent()
        at_body = parent is not None and parent.tag == _BODY
        if element.tag == _P:
            text = _runs_text(element)
            self.meter.add("paragraphs")
            self.meter.add("chars", len(text))
            if not at_body:
                return _KEEP  # in a table cell or text box: its block reads it
            style = self.pstyle(element)
            return _paragraph_text(
                text, self.names.get(style, self.default) if style else self.default
            )
        if element.tag == _TR:
            grandparent = parent.getparent() if parent is not None else None
            if grandparent is None or grandparent.tag != _BODY:
                return _KEEP  # a nested table's row: read with its cell
            row = _row_text(element, self.above)
            if row:
                self.rows.append(row)
            return ""
        if not at_body:
            return _KEEP
        table, self.rows, self.above = "\n".join(self.rows), [], {}
        return table

    @staticmethod
    def pstyle(paragraph: etree._Element) -> str | None:
        found = paragraph.find(f"{_W}pPr/{_W}pStyle")
        return found.get(f"{_W}val") if found is not None else None


_KEEP = None


def _drop(element: etree._Element) -> None:
    """Frees a read element and what came before it in its parent."""
    element.clear()
    parent = element.getparent()
    while parent is not None and element.getprevious() is not None:
        del parent[0]


def _runs_text(paragraph: etree._Element) -> str:
    """python-docx's `CT_P.text` (runs, and runs in hyperlinks), without its slow XPath."""
    parts: list[str] = []
    for child in paragraph.iterchildren(_R, _LINK):
        for run in (child,) if child.tag == _R else child.iterchildren(_R):
            parts.extend(str(item) for item in run.iterchildren(*_RUN_ITEMS))
    return "".join(parts)


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


def _row_text(tr: etree._Element, above: dict[int, str]) -> str:
    """A `cell | cell` line as python-docx's `row.cells` give it: a cell spanning columns repeats
    (shown once), a vertically merged cell repeats the text of the row where it starts."""
    column, cells = _int(tr, f"{_W}trPr/{_W}gridBefore", 0), list[str]()
    for tc in tr.iterchildren(f"{_W}tc"):
        span = _int(tc, f"{_W}tcPr/{_W}gridSpan", 1)
        merge = tc.find(f"{_W}tcPr/{_W}vMerge")
        if merge is not None and merge.get(f"{_W}val", "continue") == "continue":
            value = above.get(column, "")
        else:
            value = " ".join("\n".join(_runs_text(p) for p in tc.iterchildren(_P)).split())
        if span > 0 and (not cells or cells[-1] != value):
            cells.append(value)
        for offset in range(min(span, _MAX_COLUMNS)):
            above[column + offset] = value
        column += span
    return " | ".join(cells) if any(cells) else ""


def _int(element: etree._Element, path: str, default: int) -> int:
    found = element.find(path)
    value = found.get(f"{_W}val") if found is not None else None
    return int(value) if value is not None and value.isdigit() else default
