"""The API under test: create_app over a container built from the fakes (no model, no disk
stores beyond tmp_path), driven in-process through httpx's ASGI transport."""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from pipelines.deps import PipelineConfig
from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules
from pipelines.state import Classification
from service.app import create_app
from service.auth.passwords import Passwords
from service.bootstrap import build_container
from service.container import Container
from service.pipeline_config import load_pipeline_config
from service.settings import Settings
from tests.fakes.chat_model import FakeChatModel
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex

SECRET = "test-secret-" + "x" * 60
PASSWORD = "correct horse battery"
# Cheap argon2 parameters: the tests check behaviour, not cost.
CHEAP_PASSWORDS = Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """No WARDEN_ variable or .env from the developer's shell leaks into a test."""
    for name in list(os.environ):
        if name.startswith("WARDEN_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def make_settings(tmp_path: Any, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"data_dir": tmp_path / "data", "jwt_secret": SECRET}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@dataclass
class Kit:
    """A container of fakes (kept by name, unwrapped) plus a client bound to an app over it."""

    container: Container
    client: httpx.AsyncClient
    store: FakeStore
    index: FakeVectorIndex
    embedder: FakeEmbedder
    detector: FakePiiDetector
    tracer: RecordingTracer
    classified: list[str]  # every message text the service classified, in order

    async def register(
        self, email: str, password: str = PASSWORD, name: str = "Asha"
    ) -> httpx.Response:
        body = {"email": email, "password": password, "name": name}
        return await self.client.post("/v1/auth/register", json=body)

    async def login(self, email: str, password: str = PASSWORD) -> httpx.Response:
        return await self.client.post(
            "/v1/auth/token", data={"username": email, "password": password}
        )

    async def token_for(self, email: str, name: str = "Asha") -> str:
        await self.register(email, name=name)
        response = await self.login(email)
        assert response.status_code == 200, response.text
        return str(response.json()["access_token"])

    async def headers_for(self, email: str, name: str = "Asha") -> dict[str, str]:
        return {"Authorization": f"Bearer {await self.token_for(email, name)}"}


KitFactory = Callable[..., Awaitable[Kit]]


@functools.cache
def shipped_config() -> PipelineConfig:
    """service/config as shipped, parsed once (compiling the safety rules takes ~0.2 s)."""
    return load_pipeline_config(Settings(_env_file=None))  # type: ignore[call-arg]


@pytest.fixture
async def make_kit(tmp_path: Any) -> AsyncIterator[KitFactory]:
    kits: list[Kit] = []

    async def factory(*, chat_model: FakeChatModel | None = None, **overrides: Any) -> Kit:
        store, index, embedder = FakeStore(), FakeVectorIndex(), FakeEmbedder()
        detector, tracer = FakePiiDetector(), RecordingTracer()
        classified: list[str] = []

        def counting_classifier(text: str, rules: SafetyRules) -> Classification:
            classified.append(text)
            return classify_message(text, rules)

        container = await build_container(
            make_settings(tmp_path, **overrides),
            embedder=embedder,
            index=index,
            detector=detector,
            chat_model=chat_model,
            store=store,
            tracer=tracer,
            passwords=CHEAP_PASSWORDS,
            config=shipped_config(),
            classifier=counting_classifier,
        )
        transport = httpx.ASGITransport(app=create_app(container))
        client = httpx.AsyncClient(transport=transport, base_url="http://warden.test")
        kit = Kit(container, client, store, index, embedder, detector, tracer, classified)
        kits.append(kit)
        return kit

    yield factory
    for kit in kits:
        await kit.client.aclose()
        await kit.container.close()


@pytest.fixture
async def kit(make_kit: KitFactory) -> Kit:
    return await make_kit()
