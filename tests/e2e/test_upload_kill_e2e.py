"""Acceptance: a real `kill -9` of `warden serve` in the middle of an upload. The process is
killed right after it wrote the upload's pending record, while it embeds the chunks; the
folder then holds that pending record. A new process on the folder lists nothing, serves
nothing of it and holds none of its vectors."""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from service.adapters.store.mongo_open import STORE_DIR, open_embedded_store
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex
from service.app import create_app
from service.bootstrap import build_container
from tests.e2e.conftest import Prepared, copy_data, settings_for
from tests.e2e.serving import warden_serving

NAME = "tenancy-notes.txt"
# ~200 chunks: embedding them takes seconds, so the kill lands mid-upload
NOTES = "\n\n".join(
    f"Note {n}. The tenant of flat {n} paid a deposit of {n * 100} rupees; the landlord must "
    f"return it within {n % 30 + 1} days after the lease ends, minus documented repairs. "
    "A receipt for every payment protects the tenant." * 2
    for n in range(200)
).encode()
MINILM_DIM = 384


def _pending_committed(data: Path, name: str) -> bool:
    """Whether the store holds a committed pending record named `name`. Read through SQLite
    (read-only), not the files' bytes: a record's bytes reach the write-ahead log before its
    transaction commits, and a kill in between leaves no record."""
    path = data / STORE_DIR / "warden.sqlite"
    if not path.exists():
        return False
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        try:
            row = db.execute(
                "SELECT 1 FROM documents WHERE document LIKE ? AND document LIKE ? LIMIT 1",
                (f"%{name}%", '%"pending"%'),
            ).fetchone()
        except sqlite3.OperationalError:  # the tables are not created yet, or a lock
            return False
    return row is not None


def _kill_mid_upload(data: Path, log: Path) -> str:
    """`warden serve`: register, start the upload, kill -9 once the store was written."""
    outcome: list[object] = []
    with warden_serving(data, log, signal.SIGKILL) as serving:

        def send() -> None:
            files = {"file": (NAME, NOTES, "text/plain")}
            try:
                with httpx.Client(base_url=serving.url, timeout=120) as client:
                    outcome.append(
                        client.post("/v1/documents", files=files, headers=serving.headers)
                    )
            except httpx.TransportError as error:
                outcome.append(error)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        deadline = time.monotonic() + 60
        # kill once the pending record is committed, not at the first write: the store
        # writes other things at start (access rules, sealed history)
        while not _pending_committed(data, NAME) and not outcome and time.monotonic() < deadline:
            time.sleep(0.002)
    sender.join(timeout=30)
    assert serving.process.returncode == -signal.SIGKILL
    assert outcome and isinstance(outcome[0], httpx.TransportError), outcome  # never answered
    return serving.token


async def test_kill_9_mid_upload_leaves_nothing_after_restart(
    prepared: Prepared, tmp_path: Path
) -> None:
    data = copy_data(prepared.data, tmp_path)
    core = QdrantEdgeIndex.open(data / "qdrant", MINILM_DIM)
    core_points = await core.count()
    await core.close()

    token = _kill_mid_upload(data, tmp_path / "serve.log")

    store = await open_embedded_store(data)  # what the kill left, before any clean-up
    try:
        pending = await store.pending_documents(created_before=_far_future())
        assert [d.name for d in pending] == [NAME], pending
    finally:
        await store.close()

    container = await build_container(settings_for(data))  # the restart: clean-up first
    transport = httpx.ASGITransport(app=create_app(container))
    try:
        assert await container.deps.index.count() == core_points  # no vector of it is left
        assert await container.store.pending_documents(_far_future()) == []
        async with httpx.AsyncClient(transport=transport, base_url="http://warden.test") as api:
            headers = {"Authorization": f"Bearer {token}"}
            listed = await api.get("/v1/documents", headers=headers)
            assert listed.status_code == 200 and listed.json() == [], listed.text
            question = {"message": "When must the landlord return the deposit of flat 7?"}
            answer = await api.post("/v1/chat", json=question, headers=headers)
            assert answer.status_code == 200, answer.text
            assert NAME not in {s["source"] for s in answer.json()["sources"]}
    finally:
        await container.close()


def _far_future() -> datetime:
    return datetime.now(UTC) + timedelta(days=1)
