"""`warden serve` in a subprocess on a data folder, with an account signed in, as the e2e
tests that restart or kill the service start it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.e2e.conftest import ROOT
from tests.integration.llm_server import free_port
from tests.integration.test_service_real import _wait_until_up

ACCOUNT = {"email": "asha@example.org", "password": "long enough pw", "name": "Asha"}
LOGIN = {"username": ACCOUNT["email"], "password": ACCOUNT["password"]}


def warden_command() -> list[str]:
    """The installed `warden` console script when there is one, else the module."""
    script = Path(sys.executable).parent / "warden"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "service.main"]


@dataclass(frozen=True)
class Serving:
    process: subprocess.Popen[bytes]
    url: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@contextmanager
def warden_serving(data: Path, log: Path, stop: signal.Signals) -> Iterator[Serving]:
    """`warden serve` on `data` (its output in `log`), up and with ACCOUNT registered and
    signed in; sent `stop` and waited for on the way out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    env.update({"PYTHONPATH": str(ROOT), "WARDEN_DATA_DIR": str(data)})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        server = subprocess.Popen(
            [*warden_command(), "serve", "--port", str(port)],
            env=env,
            cwd=data.parent,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(url, server)
            with httpx.Client(base_url=url, timeout=60) as client:
                assert client.post("/v1/auth/register", json=ACCOUNT).status_code == 202
                token = client.post("/v1/auth/token", data=LOGIN).json()["access_token"]
            yield Serving(server, url, token)
        finally:
            server.send_signal(stop)
            server.wait(timeout=60)
