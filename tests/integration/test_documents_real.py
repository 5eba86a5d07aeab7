"""Uploads on the real embedded stack: Qdrant Edge, the ONNX MiniLM embedder and mongoeco on
SQLite in tmp_path (opened by build_container, as `warden serve` does). Tenant isolation
through POST /v1/chat, expiry, and the sweeper removing both vectors and records."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.bootstrap import build_container
from service.container import Container
from service.documents.sweeper import SweepResult
from tests.api.conftest import CHEAP_PASSWORDS, make_settings, shipped_config
from tests.api.documents_kit import MovableClock, chat_sources, file_of, upload
from tests.fakes.detector import FakePiiDetector
from tests.fakes.tracer import RecordingTracer

pytestmark = pytest.mark.slow
PERMIT = (
    "The zebrafish aquarium permit requires a quarterly turbidity report. "
    "Permit holders must keep water samples for ninety days and show them to inspectors."
)
LEASE = "The orchard lease says the walnut harvest belongs to the tenant farmer each autumn."
QUESTION = "What does the zebrafish aquarium permit require?"


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[Container, httpx.AsyncClient]]:
    started = time.perf_counter()
    container = await build_container(
        make_settings(tmp_path),
        detector=FakePiiDetector(),  # Presidio is not what this test is about
        tracer=RecordingTracer(),
        passwords=CHEAP_PASSWORDS,
        config=shipped_config(),
    )
    print(f"\nreal stack opened in {time.perf_counter() - started:.2f} s")
    transport = httpx.ASGITransport(app=create_app(container))
    async with httpx.AsyncClient(transport=transport, base_url="http://warden.test") as client:
        yield container, client
    await container.close()


async def _headers(client: httpx.AsyncClient, email: str) -> dict[str, str]:
    body = {"email": email, "password": "correct horse battery", "name": "Tester"}
    await client.post("/v1/auth/register", json=body)
    form = {"username": email, "password": body["password"]}
    token = (await client.post("/v1/auth/token", data=form)).json()["access_token"]
    return {"Authorization": f"Bearer {token}"}


async def _timed_upload(client: httpx.AsyncClient, headers: Any, name: str, data: bytes) -> Any:
    started = time.perf_counter()
    response = await upload(client, headers, name, data)
    assert response.status_code == 201, response.text
    print(
        f"upload {name}: {response.json()['chunks']} chunks, "
        f"{(time.perf_counter() - started) * 1000:.0f} ms"
    )
    return response.json()


async def test_isolation_on_the_real_stack(stack: tuple[Container, httpx.AsyncClient]) -> None:
    container, client = stack
    a, b = await _headers(client, "asha@example.org"), await _headers(client, "bilal@example.org")
    await _timed_upload(client, a, "a-permit.pdf", file_of("pdf", PERMIT)[1])
    await _timed_upload(client, b, "b-lease.docx", file_of("docx", LEASE)[1])

    a_sources = await chat_sources(client, a, QUESTION)
    b_sources = await chat_sources(client, b, QUESTION)
    b_own = await chat_sources(client, b, "Who gets the walnut harvest?")

    assert a_sources and a_sources[0]["source"] == "a-permit.pdf"  # the owner finds it first
    assert a_sources[0]["page"] == 1
    assert "a-permit.pdf" not in {s["source"] for s in b_sources}
    assert "b-lease.docx" in {s["source"] for s in b_own}
    assert "b-lease.docx" not in {s["source"] for s in a_sources}
    names = [d["name"] for d in (await client.get("/v1/documents", headers=b)).json()]
    assert names == ["b-lease.docx"]


async def test_expiry_and_sweep_on_the_real_stack(
    stack: tuple[Container, httpx.AsyncClient],
) -> None:
    container, client = stack
    clock = MovableClock.install(container)
    a = await _headers(client, "asha@example.org")
    old = await _timed_upload(client, a, "a-permit.txt", PERMIT.encode())
    clock.offset = timedelta(hours=12)
    fresh = await _timed_upload(client, a, "a-lease.md", file_of("md", LEASE)[1])
    total = await container.deps.index.count()
    assert total == old["chunks"] + fresh["chunks"]

    clock.offset = timedelta(hours=24, seconds=1)  # the first upload has expired
    sources = {s["source"] for s in await chat_sources(client, a, QUESTION)}
    assert "a-permit.txt" not in sources
    assert [d["id"] for d in (await client.get("/v1/documents", headers=a)).json()] == [fresh["id"]]

    assert await container.documents.sweep() == SweepResult(True, records_removed=1)
    assert await container.deps.index.count() == fresh["chunks"]
    assert await container.store.expired_documents(clock()) == []  # its record went too
    deleted = await client.delete(f"/v1/documents/{fresh['id']}", headers=a)
    assert deleted.status_code == 204
    assert await container.deps.index.count() == 0
    owner = container.tokens.verify(a["Authorization"].split()[1]).user_id
    assert await container.store.user_documents(owner, now=container.deps.clock()) == []
