"""PDF bytes -> (text, 1-based page number) per page, metered.

Under a budget the page count is checked before any page is read, each page's decoded content
is charged before it is parsed (pages may share one content stream: each page parses it
again, so each is charged), every content operator is counted (form XObjects included), and
pypdf's own per-stream limits are tightened to the budget. Without a budget this is plain
`page.extract_text()`.
"""

from __future__ import annotations

import io
import re
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from ingestion.load_limits import CorruptDocument, DocumentError, DocumentTooLarge, Meter

if TYPE_CHECKING:
    from pypdf import PageObject

# pypdf parses a page only if its content has one of these (pypdf's own test, which a
# visitor switches off): Tj, TJ, ', " show text, Do may draw a form holding text.
_TEXT_OPERATOR = re.compile(rb"T[jJ]|Do|['\"]")
_FORMS_PER_PAGE = 100  # pypdf's default is 5,000 form XObject runs per page
_MIN_STREAM_BYTES = 1 << 20
_FONT_BYTES = 512  # flat charge per font set up


def read_pdf(data: bytes, meter: Meter) -> list[tuple[str, int | None]]:
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError

    try:
        with _pypdf_limits(meter):
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not reader.decrypt(""):
                raise CorruptDocument("the PDF is password-protected")
            pages = reader.pages
            meter.expect("pages", len(pages))
            texts: list[tuple[str, int | None]] = []
            for number, page in enumerate(pages, start=1):
                meter.add("pages")
                text = _page_text(page, meter) if meter.limited else page.extract_text()
                meter.add("chars", len(text or ""))
                texts.append((text or "", number))
            return texts
    except DocumentError:
        raise
    except LimitReachedError as exc:
        raise DocumentTooLarge("the PDF expands past the size limits for an upload") from exc
    except Exception as exc:  # pypdf raises many types on damaged files
        raise CorruptDocument(f"the PDF could not be read ({type(exc).__name__})") from exc


def _page_text(page: PageObject, meter: Meter) -> str:
    content = _decoded_content(page)
    meter.add("content", len(content))  # decoded (and kept by pypdf) even if not parsed
    if not _TEXT_OPERATOR.search(content):
        return ""  # what pypdf returns for such a page, without parsing it
    meter.add("fonts", _font_setup_bytes(page))  # pypdf sets up the fonts for each page

    def count_operation(*_: Any) -> None:
        meter.add("operations")

    return page.extract_text(visitor_operand_before=count_operation)


def _decoded_content(page: PageObject) -> bytes:
    """The page's content streams, decoded and joined as pypdf joins them."""
    from pypdf.generic import ArrayObject, StreamObject

    contents = page.get("/Contents")
    if contents is None:
        return b""
    resolved = contents.get_object()
    parts = resolved if isinstance(resolved, ArrayObject) else [resolved]
    streams = [p.get_object() for p in parts]
    return b"\n".join(s.get_data() for s in streams if isinstance(s, StreamObject))


def _font_setup_bytes(page: PageObject) -> int:
    """What setting up a page's fonts costs pypdf, in bytes: their ToUnicode maps and width
    tables, plus a flat amount per font (real pages here: ~4 fonts, ~5 KB of maps)."""
    from pypdf.generic import ArrayObject, DictionaryObject, StreamObject

    resources = _resolved(page.get("/Resources"))
    fonts = _resolved(resources.get("/Font")) if isinstance(resources, DictionaryObject) else None
    total = 0
    for reference in fonts.values() if isinstance(fonts, DictionaryObject) else ():
        font = _resolved(reference)
        if not isinstance(font, DictionaryObject):
            continue
        maps = _resolved(font.get("/ToUnicode"))
        total += _FONT_BYTES + (len(maps.get_data()) if isinstance(maps, StreamObject) else 0)
        descendants = _resolved(font.get("/DescendantFonts"))
        descendant = _resolved(descendants[0]) if isinstance(descendants, ArrayObject) else None
        widths = [_resolved(font.get("/Widths"))]
        if isinstance(descendant, DictionaryObject):
            widths.append(_resolved(descendant.get("/W")))
        for table in widths:
            if isinstance(table, ArrayObject):
                total += 8 * sum(len(w) if isinstance(w, ArrayObject) else 1 for w in table)
    return total


def _resolved(value: Any) -> Any:
    return value.get_object() if value is not None else None


def _pypdf_limits(meter: Meter) -> AbstractContextManager[object]:
    """pypdf's per-stream limits tightened to the budget (a context variable: this thread)."""
    cap = meter.budget.max_content_bytes
    if cap is None:
        return nullcontext()
    from pypdf import apply_configuration

    stream_bytes = max(cap, _MIN_STREAM_BYTES)
    return apply_configuration(
        zlib_maximum_output_length=stream_bytes,
        lzw_maximum_output_length=stream_bytes,
        run_length_maximum_output_length=stream_bytes,
        brotli_maximum_output_length=stream_bytes,
        array_based_stream_maximum_output_length=stream_bytes,
        xform_maximum_invocations_per_extraction=_FORMS_PER_PAGE,
    )
