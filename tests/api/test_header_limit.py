"""The request-head cap of `warden serve`, on a real uvicorn server on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn

from service import main as warden_main
from service.app import create_app
from service.http.header_limit import MAX_HEAD_BYTES, HeaderCappedProtocol
from tests.api.conftest import Kit, make_settings

BIG = 10 * 1024 * 1024


class RecordingProtocol(HeaderCappedProtocol):
    """Notes how many head bytes had been parsed when it refused."""

    parsed_at_refusal: list[int] = []

    def _refuse(self) -> None:
        self.parsed_at_refusal.append(self._head_bytes)
        super()._refuse()


@contextlib.asynccontextmanager
async def served(kit: Kit) -> AsyncIterator[int]:
    config = uvicorn.Config(
        create_app(kit.container), host="127.0.0.1", port=0, http=RecordingProtocol,
        log_level="warning", lifespan="off",
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn offers no event for it
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def exchange(port: int, head: bytes) -> tuple[int, dict[str, Any]]:
    """Sends `head` (from a task: the server may answer before it is all sent); the status
    and JSON body of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def send() -> None:
        with contextlib.suppress(ConnectionError):
            writer.write(head)
            await writer.drain()

    sending = asyncio.create_task(send())
    raw = await asyncio.wait_for(reader.read(), timeout=10)  # until the server closes
    sending.cancel()
    writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    body = rest.partition(b"\r\n\r\n")[2]
    return int(status_line.split()[1]), json.loads(body) if body else {}


def request_head(token: str) -> bytes:
    return (
        f"GET /v1/documents HTTP/1.1\r\nHost: warden\r\nAuthorization: Bearer {token}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


async def test_a_10_mb_bearer_header_gets_431_after_reading_little(kit: Kit) -> None:
    token = await kit.token_for("asha@example.org")
    RecordingProtocol.parsed_at_refusal.clear()
    async with served(kit) as port:
        ordinary = await exchange(port, request_head(token))
        status, body = await exchange(port, request_head("a" * BIG))
        padding = b"X-Pad: " + b"p" * (MAX_HEAD_BYTES - 2000) + b"\r\nHost"
        near_cap = await exchange(port, request_head(token).replace(b"Host", padding))

    assert (status, body["error"]) == (431, "headers_too_large")
    assert len(RecordingProtocol.parsed_at_refusal) == 1  # parsing stopped a chunk past the cap
    assert RecordingProtocol.parsed_at_refusal[0] < MAX_HEAD_BYTES + 1024 * 1024
    assert ordinary[0] == near_cap[0] == 200


def test_warden_serve_uses_the_capped_protocol(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs: list[uvicorn.Config] = []

    def run(server: uvicorn.Server) -> None:
        configs.append(server.config)
        server.started = True  # as a server that started and then stopped

    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert warden_main.serve(make_settings(tmp_path), "127.0.0.1", 0) == 0
    assert configs[0].http is HeaderCappedProtocol


async def test_a_whole_large_request_in_one_write_is_not_taken_for_a_long_head(kit: Kit) -> None:
    token = await kit.token_for("asha@example.org")
    body = json.dumps({"message": "x" * 100_000}).encode()  # well past the head cap, as a body
    request = (
        f"POST /v1/chat HTTP/1.1\r\nHost: warden\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + body
    async with served(kit) as port:
        status, answer = await exchange(port, request)
    assert status == 413 and answer["error"] != "headers_too_large", answer
