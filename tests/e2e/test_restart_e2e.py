"""Acceptance 5: data survives a restart. A `warden serve` process answers a registered user
over HTTP and is stopped with SIGTERM; a NEW process (this one) opens the same data folder:
the account, the token's secret, the vectors and the history are all still there, and the same
question brings back the same sources. The served log carries no raw personal data."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx

from service.app import create_app
from service.bootstrap import build_container
from tests.e2e.conftest import (
    BAIL_QUESTION,
    EVENTS_LOGGER,
    PII_QUESTION,
    RAW_PII,
    Prepared,
    assert_ask_fields,
    copy_data,
    settings_for,
)
from tests.e2e.serving import LOGIN, warden_serving


def _sources(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["source"], s["parent_id"]) for s in answer["sources"]]


def _first_life(data: Path, log: Path) -> tuple[str, dict[str, Any]]:
    """`warden serve` on `data`: register, log in, ask twice, then SIGTERM."""
    with (
        warden_serving(data, log, signal.SIGTERM) as serving,
        httpx.Client(base_url=serving.url, timeout=60) as client,
    ):
        headers = serving.headers
        first = client.post("/v1/chat", json={"message": BAIL_QUESTION}, headers=headers)
        assert first.status_code == 200, first.text
        pii = client.post("/v1/chat", json={"message": PII_QUESTION}, headers=headers)
        assert pii.status_code == 200 and pii.json()["pii_found"] is True, pii.text
    assert serving.process.returncode in (0, -signal.SIGTERM)
    return serving.token, first.json()


async def test_restart_keeps_sources_history_and_accounts(
    prepared: Prepared, tmp_path: Path
) -> None:
    data = copy_data(prepared.data, tmp_path)
    log = tmp_path / "serve.log"
    token, before = _first_life(data, log)
    assert before["route"] == "question" and before["sources"]

    served = log.read_text()
    assert "Application shutdown complete" in served
    events = [line for line in served.splitlines() if f" {EVENTS_LOGGER}: " in line]
    assert len(events) == 2 and '"pii_found":true' in events[1], events
    assert all(value not in served for value in RAW_PII)
    assert BAIL_QUESTION not in served  # no user text in the logs at all

    container = await build_container(settings_for(data))  # a new process on the same folder
    transport = httpx.ASGITransport(app=create_app(container))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://warden.test") as api:
            headers = {"Authorization": f"Bearer {token}"}  # the kept secret still verifies it
            history = await api.get("/v1/chat/history", headers=headers)
            assert history.status_code == 200, history.text
            messages = history.json()["messages"]
            assert [m["role"] for m in messages] == ["user", "assistant"] * 2
            assert messages[0]["content"] == BAIL_QUESTION
            assert messages[0]["route"] == "question"
            assert messages[1]["content"] == before["response"]

            again = await api.post("/v1/chat", json={"message": BAIL_QUESTION}, headers=headers)
            assert again.status_code == 200, again.text
            after = again.json()
            assert_ask_fields(after)
            assert _sources(after) == _sources(before)
            assert after["confidence"] == before["confidence"]

            relogin = await api.post("/v1/auth/token", data=LOGIN)  # the account survived
            assert relogin.status_code == 200, relogin.text
    finally:
        await container.close()
