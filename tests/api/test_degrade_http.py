"""Guarantee 6 over HTTP: a failing model, index, embedder or tracer degrades; never a 5xx."""

from __future__ import annotations

from typing import Any

import pytest

from pipelines.ports import StoreUnavailable
from tests.api.conftest import Kit, KitFactory
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import seed_core

QUESTION = "When must a landlord return the security deposit?"


async def ask(kit: Kit) -> dict[str, Any]:
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.post("/v1/chat", json={"message": QUESTION}, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def broken(*_: Any, **__: Any) -> Any:
    raise StoreUnavailable("down")


async def test_a_failing_model_degrades_to_the_sources(make_kit: KitFactory) -> None:
    kit = await make_kit(chat_model=FakeChatModel(fail=True))
    await seed_core(kit.index, kit.embedder)
    body = await ask(kit)
    assert body["mode"] == "degraded" and body["sources"] and body["calls"]["llm"] == 1


@pytest.mark.parametrize("part", ["index", "embedder"])
async def test_a_failing_search_still_answers(make_kit: KitFactory, part: str) -> None:
    kit = await make_kit()
    await seed_core(kit.index, kit.embedder)
    if part == "index":
        kit.index.dual_search = broken  # type: ignore[method-assign]
    else:
        kit.embedder.embed_query = broken  # type: ignore[method-assign]
    body = await ask(kit)
    assert body["route"] == "question" and body["sources"] == []
    assert body["calls"]["llm"] == 0


async def test_a_failing_tracer_does_not_fail_the_chat(make_kit: KitFactory) -> None:
    kit = await make_kit()
    await seed_core(kit.index, kit.embedder)
    kit.tracer.emit = broken  # type: ignore[method-assign]
    body = await ask(kit)
    assert body["route"] == "question" and body["sources"]
