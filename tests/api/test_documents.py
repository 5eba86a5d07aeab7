"""POST/GET/DELETE /v1/documents over fakes: types, sniffing, limits, and nothing half-written."""

from __future__ import annotations

import asyncio
import io
import zipfile
from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta

import httpx
import pytest

from pipelines.ports import IndexPoint, StoreUnavailable
from pipelines.safety.verdict import CLEAR
from service.app import create_app
from service.documents.limits import DocumentLimits
from service.documents.service import DocumentService
from tests.api.conftest import Kit, KitFactory
from tests.api.documents_kit import TEXT, docx_bytes, file_of, pdf_bytes, upload

A, B = "asha@example.org", "bilal@example.org"


def _user_id(kit: Kit, headers: dict[str, str]) -> str:
    return kit.container.tokens.verify(headers["Authorization"].split()[1]).user_id


def _doc_points(kit: Kit, doc_id: str) -> list[IndexPoint]:
    return [p for p in kit.index.points.values() if p.payload.get("doc_id") == doc_id]


async def _nothing_written(kit: Kit) -> None:
    assert await kit.index.count() == 0
    assert kit.store.documents == {}


@pytest.mark.parametrize("kind", ["txt", "md", "docx", "pdf"])
async def test_upload_each_type_indexes_and_records_it(kit: Kit, kind: str) -> None:
    headers = await kit.headers_for(A)
    name, data = file_of(kind)
    response = await upload(kit.client, headers, name, data)

    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) >= {"id", "name", "chunks", "expires_at"}
    assert len(body["id"]) == 32 and body["name"] == name and body["chunks"] >= 1
    lifetime = datetime.fromisoformat(body["expires_at"]) - datetime.fromisoformat(
        body["created_at"]
    )
    assert lifetime == timedelta(hours=24)  # WARDEN_UPLOAD_TTL_HOURS default
    points = _doc_points(kit, body["id"])
    assert len(points) == body["chunks"]
    owner = _user_id(kit, headers)
    for point in points:  # tenant scoping lives in the payload, from the token's sub
        assert point.payload["is_temporary"] is True and point.payload["uploaded_by"] == owner
        assert point.payload["source"] == name and point.payload["expires_at"] is not None
    record = kit.store.documents[body["id"]]
    assert record.user_id == owner and record.chunks == body["chunks"]
    assert "zebrafish" in " ".join(str(p.payload["text"]) for p in points)


async def test_list_shows_only_the_callers_documents(kit: Kit) -> None:
    a, b = await kit.headers_for(A), await kit.headers_for(B, name="Bilal")
    first = (await upload(kit.client, a, *file_of("txt"))).json()
    second = (await upload(kit.client, a, *file_of("md"))).json()
    (await upload(kit.client, b, *file_of("pdf"))).json()

    listed = await kit.client.get("/v1/documents", headers=a)
    assert listed.status_code == 200
    assert [d["id"] for d in listed.json()] == [first["id"], second["id"]]
    assert set(listed.json()[0]) == {
        "id", "name", "chunks", "created_at", "expires_at", "held_back", "held_back_reasons",
    }  # fmt: skip
    assert [d["name"] for d in (await kit.client.get("/v1/documents", headers=b)).json()] == [
        "notes.pdf"
    ]


async def test_delete_own_document_removes_vectors_and_record(kit: Kit) -> None:
    headers = await kit.headers_for(A)
    doc = (await upload(kit.client, headers, *file_of("txt"))).json()
    kept = (await upload(kit.client, headers, *file_of("md"))).json()

    response = await kit.client.delete(f"/v1/documents/{doc['id']}", headers=headers)
    assert response.status_code == 204 and response.content == b""
    assert _doc_points(kit, doc["id"]) == [] and doc["id"] not in kit.store.documents
    assert _doc_points(kit, kept["id"]) and kept["id"] in kit.store.documents  # only that one
    again = await kit.client.delete(f"/v1/documents/{doc['id']}", headers=headers)
    assert again.status_code == 404 and again.json()["error"] == "document_not_found"


async def test_another_users_document_is_404_and_untouched(kit: Kit) -> None:
    a, b = await kit.headers_for(A), await kit.headers_for(B, name="Bilal")
    doc = (await upload(kit.client, a, *file_of("txt"))).json()
    points_before = len(_doc_points(kit, doc["id"]))

    for doc_id in (doc["id"], "0" * 32, "not-a-document-id"):
        response = await kit.client.delete(f"/v1/documents/{doc_id}", headers=b)
        assert response.status_code == 404
        assert response.json() == {"error": "document_not_found", "detail": "No such document."}
    assert len(_doc_points(kit, doc["id"])) == points_before  # same answer, nothing deleted
    assert doc["id"] in kit.store.documents


def _zip_without_document() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("setup.exe", b"MZ\x90\x00binary"),
        ("no-extension", TEXT.encode()),
        ("fake.pdf", TEXT.encode()),  # text claiming to be a PDF
        ("sheet.docx", _zip_without_document()),  # a zip, but not a Word document
        ("fake.docx", TEXT.encode()),
        ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        ("dump.md", b"text then \x00\x01\x02 binary"),
        ("slides.pptx", b"PK\x03\x04..."),
    ],
    ids=[
        "exe",
        "no-ext",
        "text-as-pdf",
        "xlsx-as-docx",
        "text-as-docx",
        "png-as-txt",
        "nul-md",
        "pptx",
    ],
)
async def test_unsupported_types_are_415(kit: Kit, name: str, data: bytes) -> None:
    headers = await kit.headers_for(A)
    response = await upload(kit.client, headers, name, data)
    assert response.status_code == 415, response.text
    assert response.json()["error"] == "unsupported_type"
    assert kit.embedder.calls == 0
    await _nothing_written(kit)


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("broken.pdf", b"%PDF-1.4\nthis is not really a pdf", "corrupt_document"),
        ("cut.pdf", pdf_bytes([["Some text"]])[:120], "corrupt_document"),
        ("broken.docx", b"PK\x03\x04 truncated zip", "corrupt_document"),
        ("empty.txt", b"", "empty_document"),
        ("blank.md", b"  \n\n \n", "empty_document"),
        ("blank.docx", docx_bytes(["", "  "]), "empty_document"),
    ],
    ids=["garbage-pdf", "truncated-pdf", "truncated-docx", "empty-txt", "blank-md", "blank-docx"],
)
async def test_corrupt_or_empty_files_are_422_and_write_nothing(
    kit: Kit, name: str, data: bytes, code: str
) -> None:
    headers = await kit.headers_for(A)
    response = await upload(kit.client, headers, name, data)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == code
    await _nothing_written(kit)


async def test_oversize_uploads_are_413_and_the_cap_itself_is_fine(make_kit: KitFactory) -> None:
    kit = await make_kit(max_upload_bytes=4096)
    headers = await kit.headers_for(A)
    at_cap = (TEXT + " ") * (4096 // (len(TEXT) + 1))
    at_cap = at_cap + "x" * (4096 - len(at_cap))

    assert (await upload(kit.client, headers, "cap.txt", at_cap.encode())).status_code == 201
    over = await upload(kit.client, headers, "over.txt", at_cap.encode() + b"y")
    assert over.status_code == 413 and over.json()["error"] == "upload_too_large"
    huge = await upload(kit.client, headers, "huge.txt", b"z" * 100_000)
    assert huge.status_code == 413 and huge.json()["error"] == "upload_too_large"
    assert len(kit.store.documents) == 1  # only the one at the cap


async def test_streamed_oversize_upload_is_counted_while_reading(make_kit: KitFactory) -> None:
    kit = await make_kit(max_upload_bytes=4096)
    headers = await kit.headers_for(A)
    boundary = "warden-test-boundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n'
        "Content-Type: text/plain\r\n\r\n"
    ).encode()
    sent: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked transfer
        yield head
        for _ in range(64):
            sent.append(1)
            yield b"word " * 200
        yield f"\r\n--{boundary}--\r\n".encode()

    response = await kit.client.post(
        "/v1/documents",
        content=chunks(),
        headers={**headers, "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 413 and response.json()["error"] == "upload_too_large"
    assert len(sent) < 64  # reading stopped at the cap
    await _nothing_written(kit)


async def test_declared_oversize_is_refused_before_authentication(make_kit: KitFactory) -> None:
    kit = await make_kit(max_upload_bytes=4096)
    response = await upload(kit.client, {}, "big.txt", b"x" * 8192)
    assert response.status_code == 413 and response.json()["error"] == "upload_too_large"
    small = await upload(kit.client, {}, "small.txt", b"x" * 100)
    assert small.status_code == 401  # within the cap: authentication comes next


async def test_file_names_are_sanitised(kit: Kit) -> None:
    headers = await kit.headers_for(A)
    cases = {
        "../../etc/passwd.txt": "passwd.txt",
        "C:\\Users\\asha\\My  Notes.md": "My Notes.md",
        "report\u202etxt.md": "reporttxt.md",  # right-to-left override dropped
    }
    for given, expected in cases.items():
        body = (await upload(kit.client, headers, given, TEXT.encode())).json()
        assert body["name"] == expected
    long_name = "a" * 300 + ".txt"
    body = (await upload(kit.client, headers, long_name, TEXT.encode())).json()
    assert len(body["name"]) == 120 and body["name"].endswith(".txt")


async def test_missing_file_field_and_bad_bodies(kit: Kit) -> None:
    headers = await kit.headers_for(A)
    as_field = await kit.client.post("/v1/documents", data={"file": TEXT}, headers=headers)
    as_json = await kit.client.post("/v1/documents", json={"file": TEXT}, headers=headers)
    broken = await kit.client.post(
        "/v1/documents",
        content=b"--x\r\nnot a real part",
        headers={**headers, "Content-Type": "multipart/form-data"},  # no boundary
    )
    assert as_field.status_code == 422 and as_field.json()["error"] == "missing_file"
    assert as_json.status_code == 422 and as_json.json()["error"] == "missing_file"
    assert broken.status_code == 400 and broken.json()["error"] == "malformed_upload"
    await _nothing_written(kit)


async def test_every_route_needs_a_token(kit: Kit) -> None:
    assert (await upload(kit.client, {}, *file_of("txt"))).status_code == 401
    assert (await kit.client.get("/v1/documents")).status_code == 401
    assert (await kit.client.delete(f"/v1/documents/{'0' * 32}")).status_code == 401
    await _nothing_written(kit)


async def _serve_with(kit: Kit, documents: DocumentService) -> None:
    """Points the kit's client at a fresh app over the same container using `documents`."""
    app = create_app(kit.container)
    kit.container.documents = documents
    await kit.client.aclose()
    kit.client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://warden.test"
    )


async def _limited(kit: Kit, **limits: int) -> None:
    base = DocumentLimits.from_settings(kit.container.settings)
    tight = DocumentLimits(base.max_upload_bytes, base.ttl, **limits)
    await _serve_with(kit, kit.container.documents.with_limits(tight))


async def test_live_document_limit_per_user(kit: Kit) -> None:
    await _limited(kit, max_documents=2)
    a, b = await kit.headers_for(A), await kit.headers_for(B, name="Bilal")
    first = (await upload(kit.client, a, *file_of("txt"))).json()
    assert (await upload(kit.client, a, *file_of("md"))).status_code == 201

    refused = await upload(kit.client, a, *file_of("pdf"))
    assert refused.status_code == 409 and refused.json()["error"] == "too_many_documents"
    assert len(kit.store.documents) == 2
    assert (await upload(kit.client, b, *file_of("pdf"))).status_code == 201  # per user
    await kit.client.delete(f"/v1/documents/{first['id']}", headers=a)
    assert (await upload(kit.client, a, *file_of("pdf"))).status_code == 201


async def test_concurrent_uploads_cannot_pass_the_limit(kit: Kit) -> None:
    await _limited(kit, max_documents=1)
    headers = await kit.headers_for(A)
    responses = await asyncio.gather(
        *(upload(kit.client, headers, *file_of(kind)) for kind in ("txt", "md", "pdf"))
    )
    assert sorted(r.status_code for r in responses) == [201, 409, 409]
    assert len(kit.store.documents) == 1


async def test_too_many_chunks_is_413_before_anything_is_written(kit: Kit) -> None:
    await _limited(kit, max_chunks=2)
    headers = await kit.headers_for(A)
    long_text = "\n\n".join(f"Paragraph {i}: {TEXT}" for i in range(40))
    response = await upload(kit.client, headers, "long.txt", long_text.encode())
    assert response.status_code == 413 and response.json()["error"] == "too_many_chunks"
    assert kit.embedder.calls == 0  # refused before any embedding work
    await _nothing_written(kit)


class FailingAfterWrite:
    """Writes the points it is given, then fails: an index that breaks midway."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        await self.inner.upsert(points)  # type: ignore[attr-defined]
        raise ConnectionError("index went away midway")


async def test_indexing_failure_midway_leaves_no_vectors_and_no_record(kit: Kit) -> None:
    failing = DocumentService(
        index=FailingAfterWrite(kit.index),  # type: ignore[arg-type]
        embedder=kit.embedder,
        registry=kit.store,
        clock=kit.container.deps.clock,
        limits=DocumentLimits.from_settings(kit.container.settings),
        screen=lambda _: CLEAR,  # screening is not what this test is about
    )
    await _serve_with(kit, failing)
    headers = await kit.headers_for(A)
    response = await upload(kit.client, headers, *file_of("txt"))
    assert response.status_code == 503 and response.json()["error"] == "index_unavailable"
    await _nothing_written(kit)


async def test_a_record_that_cannot_be_written_stops_the_upload_before_indexing(kit: Kit) -> None:
    headers = await kit.headers_for(A)
    kit.store.fail_writes = True
    response = await upload(kit.client, headers, *file_of("docx"))
    assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
    assert kit.embedder.calls == 0  # the pending record comes first
    kit.store.fail_writes = False
    await _nothing_written(kit)


async def test_a_record_that_cannot_be_marked_ready_takes_its_vectors_with_it(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = await kit.headers_for(A)

    async def store_down(doc_id: str, *, user_id: str) -> bool:
        raise StoreUnavailable("down at the last step")

    monkeypatch.setattr(kit.store, "mark_document_ready", store_down)
    response = await upload(kit.client, headers, *file_of("docx"))
    assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
    assert kit.embedder.calls > 0  # it was indexed, then compensated
    await _nothing_written(kit)
