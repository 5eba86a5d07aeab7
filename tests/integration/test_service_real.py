"""The real thing, embedded defaults: `warden serve` in a subprocess, a chat over HTTP, the lock
refusing `warden ask` while it runs, a graceful stop, then `warden ingest` and `warden ask`."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    clean.update({"PYTHONPATH": str(ROOT), "WARDEN_DATA_DIR": str(tmp_path / "data")})
    yield clean


def _warden(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.main", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=env["WARDEN_DATA_DIR"].rsplit("/", 1)[0],
    )


def _wait_until_up(url: str, server: subprocess.Popen[str], startup_s: float = 90) -> None:
    deadline = time.monotonic() + startup_s
    while time.monotonic() < deadline:
        assert server.poll() is None, "warden serve exited early"
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError("warden serve did not come up")


def test_serve_lock_and_cli_on_embedded_defaults(env: dict[str, str], tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "service.main", "serve", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _wait_until_up(url, server)
        ready = httpx.get(f"{url}/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text

        with httpx.Client(base_url=url, timeout=30) as client:
            body = {"email": "asha@example.org", "password": "long enough pw", "name": "Asha"}
            assert client.post("/v1/auth/register", json=body).status_code == 202
            form = {"username": "asha@example.org", "password": "long enough pw"}
            token = client.post("/v1/auth/token", data=form).json()["access_token"]
            headers = {"Authorization": f"Bearer {token}"}
            chat = client.post("/v1/chat", json={"message": "What is bail?"}, headers=headers)
            assert chat.status_code == 200, chat.text
            assert chat.json()["route"] == "question" and chat.json()["mode"] == "abstained"

        refused = _warden(env, "ask", "What is bail?")
        assert refused.returncode == 2
        assert f"(pid {server.pid}, {url})" in refused.stderr and "POST /v1/chat" in refused.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    # uvicorn re-raises the signal after its graceful shutdown, hence -SIGTERM
    assert server.returncode in (0, -signal.SIGTERM)
    served = (tmp_path / "serve.log").read_text()
    assert "Application shutdown complete" in served
    assert "What is bail?" not in served and "asha@example.org" not in served  # no user text
    secret = Path(env["WARDEN_DATA_DIR"]) / "jwt_secret"
    assert secret.stat().st_mode & 0o777 == 0o600

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bail.md").write_text(
        "# Bail\n\nBail is the temporary release of an accused person awaiting trial. "
        "A court may set conditions for bail, such as a surety or reporting to the police.\n"
    )
    ingested = _warden(env, "ingest", str(docs), "--json")
    assert ingested.returncode == 0, ingested.stderr
    assert json.loads(ingested.stdout) == {"added": 1, "replaced": 0, "skipped": 0, "removed": 0}

    lines = "\n".join(
        json.dumps(q) for q in ({"question": "What is bail?"}, {"question": "hi there"})
    )
    asked = _warden(env, "ask", stdin=lines + "\n")
    assert asked.returncode == 0, asked.stderr
    answers = [json.loads(line) for line in asked.stdout.splitlines()]
    assert [a["route"] for a in answers] == ["question", "greeting"]
    assert answers[0]["sources"][0]["source"] == "bail.md"
    assert answers[0]["calls"]["embed"] >= 1 and answers[1]["calls"]["embed"] == 0
