"""A service on the real embedded stores (mongoeco on SQLite, Qdrant Edge) and the real PII
detector, with the fake embedder (no model), driven over ASGI; and a byte scan of a folder."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from pipelines.ports import PiiDetector
from service.app import create_app
from service.bootstrap import build_container
from service.container import Container
from tests.api.conftest import CHEAP_PASSWORDS, PASSWORD, make_settings, shipped_config
from tests.fakes.embedder import FakeEmbedder


@dataclass
class Service:
    container: Container
    client: httpx.AsyncClient

    async def headers_for(self, email: str, name: str = "Asha Rao") -> dict[str, str]:
        body = {"email": email, "password": PASSWORD, "name": name}
        assert (await self.client.post("/v1/auth/register", json=body)).status_code == 202
        form = {"username": email, "password": PASSWORD}
        response = await self.client.post("/v1/auth/token", data=form)
        assert response.status_code == 200, response.text
        return {"Authorization": f"Bearer {response.json()['access_token']}"}


@asynccontextmanager
async def embedded_service(
    tmp_path: Path, detector: PiiDetector, **settings: Any
) -> AsyncIterator[Service]:
    container = await build_container(
        make_settings(tmp_path, **settings),
        embedder=FakeEmbedder(),
        detector=detector,
        passwords=CHEAP_PASSWORDS,
        config=shipped_config(),
    )
    transport = httpx.ASGITransport(app=create_app(container))
    client = httpx.AsyncClient(transport=transport, base_url="http://warden.test", timeout=60)
    try:
        yield Service(container, client)
    finally:
        await client.aclose()
        await container.close()


def files_holding(folder: Path, needles: list[str]) -> dict[str, list[str]]:
    """needle -> the files under `folder` whose bytes contain it (UTF-8), every file read."""
    found: dict[str, list[str]] = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            data = path.read_bytes()
            for needle in needles:
                if needle.encode() in data:
                    found.setdefault(needle, []).append(str(path.relative_to(folder)))
    return found
