"""Acceptance 3: `warden serve --workers 2` with server adapters serves chats from both
processes, over one shared store and one shared vector index.

No MongoDB or Qdrant server can run here, so the servers are stand-ins on loopback: mongoeco's
wire server (PyMongo speaks the real wire protocol to it) and a Qdrant REST stand-in backed by
qdrant-client's local mode (tests/qdrant_rest.py; `AsyncQdrantClient(url=...)` speaks real HTTP
to it). Each worker process opens its own clients to both."""

from __future__ import annotations

import os
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.conftest import BAIL_QUESTION, ROOT, SAMPLE_KB, warden
from tests.e2e.serving import ACCOUNT, LOGIN, warden_command
from tests.integration.llm_server import free_port
from tests.integration.test_service_real import _wait_until_up
from tests.qdrant_rest import qdrant_rest_server
from tests.wire_server import WireServerThread

DOCS = ("bail-basics.txt", "fir-first-information-report.md", "rti-right-to-information.md")
QUESTIONS = (BAIL_QUESTION, "How do I file an FIR?", "What is an RTI application?")


STARTUP_S = 300  # two workers load their models at once; a busy 2-core host is slow at it


def _chat(url: str, headers: dict[str, str], question: str) -> httpx.Response:
    """On a new connection each time, so the kernel may hand it to either worker."""
    with httpx.Client(base_url=url, timeout=60, headers=headers) as client:
        return client.post("/v1/chat", json={"message": question})


def test_two_workers_on_servers_serve_chats_from_both_processes(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    for name in DOCS:
        (kb / name).write_bytes((SAMPLE_KB / name).read_bytes())
    wire = WireServerThread(tmp_path)
    mongodb_uri = wire.start()
    try:
        with qdrant_rest_server(free_port()) as qdrant_url:
            servers = {"qdrant_url": qdrant_url, "mongodb_uri": mongodb_uri}
            ingested = warden(tmp_path / "data", "ingest", str(kb), "--json", **servers)
            assert ingested.code == 0, ingested.err
            answers, served = _serve_and_chat(tmp_path, servers)
    finally:
        wire.close()

    assert "Started parent process" in served and served.count("Application startup complete") == 2
    instances = {a["instance"] for a in answers}
    assert len(instances) == 2, f"one worker answered everything: {instances}"
    assert all(a["route"] == "question" and a["sources"] for a in answers)


def _serve_and_chat(tmp_path: Path, servers: dict[str, str]) -> tuple[list[dict[str, Any]], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    env.update({f"WARDEN_{k.upper()}": v for k, v in servers.items()})
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "WARDEN_DATA_DIR": str(tmp_path / "data"),
            "WARDEN_RATE_LIMIT_PER_MINUTE": "0",
            # the guards' optional models are not what this test is about: faster startup
            "WARDEN_TOXICITY_CLASSIFIER": "false",
            "WARDEN_SAFETY_MODELS": "false",
        }
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    answers: list[dict[str, Any]] = []
    with log.open("w") as out:
        server = subprocess.Popen(
            [*warden_command(), "serve", "--workers", "2", "--port", str(port)],
            env=env,
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            _wait_until_up(url, server, STARTUP_S)
            with httpx.Client(base_url=url, timeout=60) as client:
                assert client.post("/v1/auth/register", json=ACCOUNT).status_code == 202
                login = client.post("/v1/auth/token", data=LOGIN)
                assert login.status_code == 200, login.text
            headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
            with ThreadPoolExecutor(max_workers=4) as pool:
                for _ in range(8):  # until both workers have answered, at most 32 chats
                    batch = [
                        pool.submit(_chat, url, headers, q) for q in (*QUESTIONS, QUESTIONS[0])
                    ]
                    for future in batch:
                        response = future.result()
                        assert response.status_code == 200, response.text
                        instance = response.headers["x-warden-instance"]
                        answers.append({**response.json(), "instance": instance})
                    if len({a["instance"] for a in answers}) == 2:
                        break
            with httpx.Client(base_url=url, timeout=60, headers=headers) as client:
                history = client.get("/v1/chat/history", params={"limit": 500}).json()
            assert len(history["messages"]) == 2 * len(answers), history  # one shared store
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return answers, log.read_text()
