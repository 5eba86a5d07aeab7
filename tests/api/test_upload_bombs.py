"""Document bombs: small uploads that expand to huge documents are refused (413) while they
are parsed, nothing is written, and uploads parse and embed one at a time."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence

import httpx
import pytest

from ingestion.loaders import DocumentTooLarge
from pipelines.safety.verdict import CLEAR
from service.app import create_app
from service.documents.limits import DocumentLimits, parse_upload
from service.documents.service import DocumentService
from tests.api.conftest import Kit
from tests.api.documents_kit import docx_bytes, upload
from tests.fakes.embedder import FakeEmbedder
from tests.unit.test_loaders import docx_bomb, pdf_bytes, pdf_sharing_one_stream

A, B = "asha@example.org", "bilal@example.org"
MIB = 1 << 20


async def _refused_and_nothing_written(kit: Kit, name: str, data: bytes) -> None:
    response = await upload(kit.client, await kit.headers_for(A), name, data)
    assert response.status_code == 413, response.text
    assert response.json()["error"] == "document_too_large"
    assert kit.embedder.calls == 0
    assert await kit.index.count() == 0
    assert kit.store.documents == {}


async def _parse_observed(data: bytes, name: str, limits: DocumentLimits) -> Counter[str]:
    """Parses as an upload would and returns the pages/paragraphs read before the refusal."""
    seen: Counter[str] = Counter()
    with pytest.raises(DocumentTooLarge) as caught:
        await parse_upload(data, name, "d" * 32, limits, observe=lambda u: seen.update([u]))
    assert caught.value.code == "document_too_large"
    return seen


def _limits(kit: Kit, **overrides: int) -> DocumentLimits:
    base = DocumentLimits.from_settings(kit.container.settings)
    return DocumentLimits(base.max_upload_bytes, base.ttl, **overrides)


async def _serve_with(kit: Kit, documents: DocumentService) -> None:
    app = create_app(kit.container)
    kit.container.documents = documents
    await kit.client.aclose()
    transport = httpx.ASGITransport(app=app)
    kit.client = httpx.AsyncClient(transport=transport, base_url="http://warden.test")


async def test_docx_over_20_mib_of_xml_is_refused_from_its_zip_directory(kit: Kit) -> None:
    data = docx_bomb(640_000)  # 21 MiB of tiny paragraphs
    assert len(data) < 200 * 1024
    await _refused_and_nothing_written(kit, "bomb.docx", data)
    assert await _parse_observed(data, "bomb.docx", _limits(kit)) == Counter()  # none read


async def test_docx_of_tiny_paragraphs_stops_at_the_paragraph_cap(kit: Kit) -> None:
    data = docx_bomb(150_000)  # 5 MiB of XML, under the XML cap, in ~15 KiB
    await _refused_and_nothing_written(kit, "bomb.docx", data)
    seen = await _parse_observed(data, "bomb.docx", _limits(kit))
    assert seen["paragraph"] == 50_001  # 1,000 chunks x 400 chars / 8 chars a paragraph


async def test_pdf_pages_sharing_one_content_stream_stop_early(kit: Kit) -> None:
    data = pdf_sharing_one_stream(pages=160, operations_per_page=40_000)  # the reviewer's 33 KiB
    assert len(data) < 40 * 1024
    await _refused_and_nothing_written(kit, "bomb.pdf", data)
    seen = await _parse_observed(data, "bomb.pdf", _limits(kit))
    assert seen["page"] == 6  # 200,000 operations (for 1,000 chunks) are spent on page 6


async def test_pdf_over_the_page_cap_is_refused_before_any_page(kit: Kit) -> None:
    limits = _limits(kit, max_pdf_pages=3)
    await _serve_with(kit, kit.container.documents.with_limits(limits))
    data = pdf_bytes([[f"Page {n} about permits."] for n in range(4)])
    await _refused_and_nothing_written(kit, "long.pdf", data)
    assert await _parse_observed(data, "long.pdf", limits) == Counter()


async def test_legitimate_longer_documents_still_upload(kit: Kit) -> None:
    headers = await kit.headers_for(A)
    paragraphs = [f"Paragraph {n}: the permit needs a turbidity report." for n in range(300)]
    pages = [[f"Page {n}: the warden office answers within thirty days."] for n in range(40)]
    for name, data in [("long.docx", docx_bytes(paragraphs)), ("long.pdf", pdf_bytes(pages))]:
        response = await upload(kit.client, headers, name, data)
        assert response.status_code == 201, response.text
        assert response.json()["chunks"] > 1
    assert len(kit.store.documents) == 2


async def test_uploads_parse_one_at_a_time_off_the_default_executor(kit: Kit) -> None:
    events: list[tuple[str, str]] = []

    def observer(tag: str) -> Callable[[str], None]:
        def observe(_: str) -> None:
            events.append((tag, threading.current_thread().name))
            time.sleep(0.002)  # parallel parses would interleave here

        return observe

    data = pdf_bytes([[f"Page {n}."] for n in range(15)])
    limits = _limits(kit)
    await asyncio.gather(
        *(parse_upload(data, "a.pdf", tag * 32, limits, observe=observer(tag)) for tag in "abc")
    )
    assert {thread for _, thread in events} == {"warden-upload-parse_0"}
    runs = [tag for i, (tag, _) in enumerate(events) if i == 0 or events[i - 1][0] != tag]
    assert sorted(runs) == ["a", "b", "c"]  # each document parsed start to end, alone


class ConcurrencyCountingEmbedder:
    """Wraps the fake embedder; records how many embed_documents calls overlap."""

    def __init__(self, inner: FakeEmbedder) -> None:
        self.inner, self.dimension = inner, inner.dimension
        self.active = self.peak = 0

    async def embed_query(self, text: str) -> list[float]:
        return await self.inner.embed_query(text)

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.active += 1
        self.peak = max(self.peak, self.active)
        await asyncio.sleep(0.005)
        self.active -= 1
        return await self.inner.embed_documents(texts)


async def test_uploads_embed_one_at_a_time(kit: Kit) -> None:
    embedder = ConcurrencyCountingEmbedder(kit.embedder)
    service = DocumentService(
        index=kit.index,
        embedder=embedder,
        registry=kit.store,
        clock=kit.container.deps.clock,
        limits=_limits(kit),
        screen=lambda _: CLEAR,  # screening is not what this test is about
    )
    await _serve_with(kit, service)
    text = " ".join(f"Sentence {n} about the aquarium permit." for n in range(200))
    users = [await kit.headers_for(A), await kit.headers_for(B, name="Bilal")]
    responses = await asyncio.gather(
        *(upload(kit.client, headers, "notes.txt", text.encode()) for headers in users)
    )
    assert [r.status_code for r in responses] == [201, 201]
    assert embedder.peak == 1
