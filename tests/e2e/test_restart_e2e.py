"""Acceptance 5: data survives a restart. A `warden serve` process answers a registered user
over HTTP and is stopped with SIGTERM; a NEW process (this one) opens the same data folder:
the account, the token's secret, the vectors and the history are all still there, and the same
question brings back the same sources. The served log carries no raw personal data."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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
    ROOT,
    Prepared,
    assert_ask_fields,
    copy_data,
    settings_for,
)
from tests.integration.llm_server import free_port
from tests.integration.test_service_real import _wait_until_up

ACCOUNT = {"email": "asha@example.org", "password": "long enough pw", "name": "Asha"}
LOGIN = {"username": ACCOUNT["email"], "password": ACCOUNT["password"]}


def _warden_command() -> list[str]:
    """The installed `warden` console script when there is one, else the module."""
    script = Path(sys.executable).parent / "warden"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "service.main"]


def _sources(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["source"], s["parent_id"]) for s in answer["sources"]]


def _first_life(data: Path, log: Path) -> tuple[str, dict[str, Any]]:
    """`warden serve` on `data`: register, log in, ask twice, then SIGTERM."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    env.update({"PYTHONPATH": str(ROOT), "WARDEN_DATA_DIR": str(data)})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*_warden_command(), "serve", "--port", str(port)],
            env=env,
            cwd=data.parent,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            _wait_until_up(url, server)
            with httpx.Client(base_url=url, timeout=60) as client:
                assert client.post("/v1/auth/register", json=ACCOUNT).status_code == 202
                token = client.post("/v1/auth/token", data=LOGIN).json()["access_token"]
                headers = {"Authorization": f"Bearer {token}"}
                first = client.post("/v1/chat", json={"message": BAIL_QUESTION}, headers=headers)
                assert first.status_code == 200, first.text
                pii = client.post("/v1/chat", json={"message": PII_QUESTION}, headers=headers)
                assert pii.status_code == 200 and pii.json()["pii_found"] is True, pii.text
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    assert server.returncode in (0, -signal.SIGTERM)
    return token, first.json()


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
