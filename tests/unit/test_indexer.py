"""sync_folder (idempotent core ingest) and index_upload (temporary user knowledge)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ingestion.indexer import IngestReport, ProgressEvent, index_upload, sync_folder
from ingestion.loaders import CorruptDocument, UnsupportedDocument
from pipelines.ports import INDEX_LAYOUT, LAYOUT_KEY, IndexedDocument, IndexPoint, StoreUnavailable
from pipelines.ports.sparse import encode_document
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.vector_index import FakeVectorIndex

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SPEC_FIELDS = {
    "chunk_type", "parent_id", "parent_text", "text", "doc_id", "source", "page",
    "is_temporary", "uploaded_by", "expires_at", "content_hash",
}  # fmt: skip


def text(topic: str, repeat: int = 12) -> str:
    line = f"The {topic} rules say a citizen may ask the authority for help about {topic}. "
    return f"# {topic.title()}\n\n" + line * repeat


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "sub").mkdir(parents=True)
    (root / "fir.md").write_text(text("fir"))
    (root / "bail.txt").write_text(text("bail", 30))
    (root / "sub" / "rti.md").write_text(text("rti"))
    (root / "notes.csv").write_text("ignored,file")
    (root / ".hidden.md").write_text(text("hidden"))
    return root


def resolved(folder: Path) -> str:
    """The folder as ingestion records it in `source_root`."""
    return str(folder.resolve())


def docs(index: FakeVectorIndex) -> dict[str, list[IndexPoint]]:
    found: dict[str, list[IndexPoint]] = {}
    for point in index.points.values():
        found.setdefault(point.payload["doc_id"], []).append(point)
    return found


async def sync(index: FakeVectorIndex, *paths: Path, delete_missing: bool = False) -> IngestReport:
    return await sync_folder(list(paths), FakeEmbedder(), index, delete_missing=delete_missing)


async def test_first_run_adds_every_supported_file(kb: Path) -> None:
    index, events = FakeVectorIndex(), list[ProgressEvent]()
    report = await sync_folder([kb], FakeEmbedder(), index, progress=events.append)
    assert (report.added, report.replaced, report.skipped, report.removed) == (3, 0, 0, 0)
    assert report.chunks == len(index.points) > 3
    assert set(docs(index)) == {"fir.md", "bail.txt", "sub/rti.md"}
    assert [e.doc_id for e in events] == ["bail.txt", "fir.md", "sub/rti.md"]
    assert events[-1] == ProgressEvent("sub/rti.md", "added", 3, 3, len(docs(index)["sub/rti.md"]))


async def test_payload_follows_the_spec(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    digest = hashlib.sha256((kb / "sub" / "rti.md").read_bytes()).hexdigest()
    for point in docs(index)["sub/rti.md"]:
        payload = point.payload
        assert set(payload) >= SPEC_FIELDS
        assert payload["chunk_type"] == "child" and payload["is_temporary"] is False
        assert payload["source"] == "rti.md" and payload["page"] is None
        assert payload["uploaded_by"] is None and payload["expires_at"] is None
        assert payload["content_hash"] == digest
        assert payload["text"] in payload["parent_text"]
        assert len(point.vector) == 384
    indexed = await index.core_documents()
    assert indexed["sub/rti.md"] == IndexedDocument(digest, resolved(kb), INDEX_LAYOUT)


async def test_children_are_indexed_with_their_header_dense_and_sparse(kb: Path) -> None:
    index, embedder = FakeVectorIndex(), FakeEmbedder()
    await sync_folder([kb], embedder, index)
    embedded = {t for batch in embedder.batches for t in batch}
    for point in docs(index)["sub/rti.md"]:
        indexed = f"Rti\n{point.payload['text']}"  # the document's title heads every child
        assert point.payload["header"] == "Rti" and indexed in embedded
        assert point.sparse == encode_document(indexed)


async def test_documents_indexed_by_older_code_are_replaced_once(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    for key, point in list(index.points.items()):  # as an older Warden wrote them
        old = {k: v for k, v in point.payload.items() if k not in (LAYOUT_KEY, "header")}
        index.points[key] = IndexPoint(point.id, point.vector, old)
    report = await sync(index, kb)
    assert (report.added, report.replaced, report.skipped) == (0, 3, 0)
    assert all(p.sparse and p.payload[LAYOUT_KEY] == INDEX_LAYOUT for p in index.points.values())
    again = await sync(index, kb)
    assert (again.added, again.replaced, again.skipped, again.chunks) == (0, 0, 3, 0)


async def test_second_run_changes_nothing(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    before = dict(index.points)
    report = await sync(index, kb, delete_missing=True)
    assert (report.added, report.replaced, report.skipped, report.removed) == (0, 0, 3, 0)
    assert report.chunks == 0 and index.points == before


async def test_an_edited_file_is_replaced_and_its_old_chunks_go(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    old_ids = {p.id for p in docs(index)["fir.md"]}
    (kb / "fir.md").write_text(text("zero fir registration", 20))
    report = await sync(index, kb)
    assert (report.added, report.replaced, report.skipped) == (0, 1, 2)
    new = docs(index)["fir.md"]
    assert not old_ids & {p.id for p in new}
    assert all("zero fir registration" in p.payload["parent_text"] for p in new)
    assert report.chunks == len(new)


async def test_delete_missing_removes_only_inside_the_given_folder(
    kb: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "lok-adalat.md").write_text(text("lok adalat"))
    single = tmp_path / "loose.txt"
    single.write_text(text("loose"))
    index = FakeVectorIndex()
    await sync(index, kb, other, single)
    (kb / "sub" / "rti.md").unlink()
    (other / "lok-adalat.md").unlink()  # gone too, but its folder is not being synced
    report = await sync(index, kb, delete_missing=True)
    assert report.removed == 1
    assert set(docs(index)) == {"fir.md", "bail.txt", "lok-adalat.md", "loose.txt"}


async def test_without_delete_missing_nothing_is_removed(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    (kb / "fir.md").unlink()
    report = await sync(index, kb)
    assert report.removed == 0 and "fir.md" in docs(index)


async def test_documents_indexed_without_a_root_are_never_deleted(kb: Path) -> None:
    index = FakeVectorIndex()
    await sync(index, kb)
    for pid, point in index.points.items():  # as older data was written: no source_root
        payload = {k: v for k, v in point.payload.items() if k != "source_root"}
        index.points[pid] = IndexPoint(pid, point.vector, payload)
    assert {d.source_root for d in (await index.core_documents()).values()} == {None}
    (kb / "fir.md").unlink()
    report = await sync(index, kb, delete_missing=True)
    assert report.removed == 0 and report.notes and "fir.md" in docs(index)
    assert report.replaced == 2  # same bytes, re-indexed so they now carry their folder
    roots = {k: d.source_root for k, d in (await index.core_documents()).items()}
    folder = resolved(kb)
    assert roots == {"fir.md": None, "bail.txt": folder, "sub/rti.md": folder}


async def test_a_single_file_is_identified_by_its_name(kb: Path) -> None:
    index = FakeVectorIndex()
    report = await sync(index, kb / "sub" / "rti.md")
    assert report.added == 1 and set(docs(index)) == {"rti.md"}


async def test_bad_files_are_reported_and_the_rest_indexed(kb: Path, tmp_path: Path) -> None:
    (kb / "broken.pdf").write_bytes(b"%PDF-1.4 nonsense")
    index = FakeVectorIndex()
    await sync(index, kb)
    (kb / "fir.md").write_bytes(b"\x00\x00 now binary")
    report = await sync(index, kb, tmp_path / "missing", tmp_path / "x.exe")
    assert report.added == 0 and report.skipped == 2
    reasons = dict(report.errors)
    assert set(reasons) == {
        "broken.pdf",
        "fir.md",
        str(tmp_path / "missing"),
        str(tmp_path / "x.exe"),
    }
    assert "fir.md" in docs(index)  # the last good version stays searchable


async def test_embeds_in_small_groups(kb: Path) -> None:
    (kb / "big.md").write_text(text("consumer complaint", 200))
    embedder = FakeEmbedder()
    report = await sync_folder([kb], embedder, FakeVectorIndex())
    sizes = [len(batch) for batch in embedder.batches]
    assert sum(sizes) == report.chunks > 40
    assert max(sizes) <= 32


async def test_upload_is_temporary_and_scoped_to_its_owner() -> None:
    index = FakeVectorIndex()
    await index.upsert([])
    expires = NOW + timedelta(hours=24)
    data = text("tenancy deposit").encode()
    chunks = await index_upload(
        data, "../My Lease.md", user_id="u-1", doc_id="d-1", expires_at=expires,
        embedder=FakeEmbedder(), index=index,
    )  # fmt: skip
    assert chunks == len(index.points) > 0
    for point in index.points.values():
        payload = point.payload
        assert set(payload) >= SPEC_FIELDS
        assert payload["is_temporary"] is True and payload["uploaded_by"] == "u-1"
        assert payload["expires_at"] == int(expires.timestamp())
        assert payload["doc_id"] == "d-1" and payload["source"] == "My Lease.md"
        assert payload["content_hash"] == hashlib.sha256(data).hexdigest()
    assert await index.core_documents() == {}
    query = await FakeEmbedder().embed_query("tenancy deposit")
    mine = await index.dual_search(query, user_id="u-1", now=NOW)
    theirs = await index.dual_search(query, user_id="u-2", now=NOW)
    assert mine.personal and not theirs.personal


@pytest.mark.parametrize(
    ("data", "name", "error"),
    [(b"garbage", "x.pdf", CorruptDocument), (b"text", "x.exe", UnsupportedDocument)],
)
async def test_bad_upload_writes_nothing(data: bytes, name: str, error: type[Exception]) -> None:
    index = FakeVectorIndex()
    with pytest.raises(error):
        await index_upload(
            data, name, user_id="u", doc_id="d", expires_at=NOW,
            embedder=FakeEmbedder(), index=index,
        )  # fmt: skip
    assert await index.count() == 0


async def test_failed_upload_write_is_rolled_back() -> None:
    class FailingIndex(FakeVectorIndex):
        async def upsert(self, points: object) -> None:
            await super().upsert(points)  # type: ignore[arg-type]
            raise StoreUnavailable("disk full")

    index = FailingIndex()
    with pytest.raises(StoreUnavailable):
        await index_upload(
            text("bail").encode(), "b.md", user_id="u", doc_id="d", expires_at=NOW,
            embedder=FakeEmbedder(), index=index,
        )  # fmt: skip
    assert await index.count() == 0
