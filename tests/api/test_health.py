"""Liveness needs nothing; readiness reports each dependency and fails on a required one."""

from __future__ import annotations

from tests.api.conftest import Kit, KitFactory
from tests.fakes.chat_model import FakeChatModel


async def test_liveness_needs_no_token(kit: Kit) -> None:
    response = await kit.client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_ready_when_every_dependency_answers(kit: Kit) -> None:
    response = await kit.client.get("/readyz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert set(body["checks"]) == {"vector_index", "store", "embedder"}  # no chat model set
    assert all(check["status"] == "up" for check in body["checks"].values())


async def test_a_failing_store_makes_the_service_unready(kit: Kit) -> None:
    kit.store.fail_reads = True
    response = await kit.client.get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["store"] == {
        "status": "down",
        "required": True,
        "error": "StoreUnavailable",
    }
    assert body["checks"]["vector_index"]["status"] == "up"


async def test_a_failing_chat_model_only_degrades(make_kit: KitFactory) -> None:
    kit = await make_kit(chat_model=FakeChatModel(fail=True, fail_reason="breaker_open"))
    response = await kit.client.get("/readyz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["chat_model"]["status"] == "down"
    assert body["checks"]["chat_model"]["error"] == "breaker_open"
    assert body["checks"]["chat_model"]["required"] is False
