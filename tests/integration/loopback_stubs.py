"""Tiny HTTP servers on 127.0.0.1 for model-client tests: they count every request.

- `answer_with(503)`: every request gets that status (with a 1 ms Retry-After, so the
  OpenAI client's retries are quick);
- `never_answer()`: reads the request, then holds the connection open without replying;
- `record_and_forward(url)`: records each JSON body, forwards it to a real server.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class StubServer:
    url: str  # base URL, ends in /v1
    requests: list[tuple[str, str, Any]] = field(default_factory=list)  # method, path, body

    def count(self, path_suffix: str = "") -> int:
        return sum(1 for _, path, _ in self.requests if path.endswith(path_suffix))


Reply = Callable[[BaseHTTPRequestHandler, Any], None]


@contextmanager
def _serve(reply: Reply, release: threading.Event) -> Iterator[StubServer]:
    stub = StubServer(url="")
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            with lock:
                stub.requests.append((self.command, self.path, body))
            reply(self, body)

        do_GET = do_POST = _handle

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    stub.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _send(handler: BaseHTTPRequestHandler, status: int, body: bytes, **headers: str) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


@contextmanager
def answer_with(status: int) -> Iterator[StubServer]:
    error = json.dumps({"error": {"message": "stub failure", "type": "server_error"}}).encode()

    def reply(handler: BaseHTTPRequestHandler, body: Any) -> None:
        _send(handler, status, error, **{"retry-after-ms": "1"})

    with _serve(reply, threading.Event()) as stub:
        yield stub


@contextmanager
def never_answer() -> Iterator[StubServer]:
    release = threading.Event()

    def reply(handler: BaseHTTPRequestHandler, body: Any) -> None:
        release.wait(timeout=30)  # until the test is over

    with _serve(reply, release) as stub:
        yield stub


@contextmanager
def record_and_forward(target_base_url: str) -> Iterator[StubServer]:
    """Non-streaming requests only: enough to see exactly what a client sent."""

    def reply(handler: BaseHTTPRequestHandler, body: Any) -> None:
        path = handler.path.removeprefix("/v1")
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            target_base_url + path,
            data=data,
            method=handler.command,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            _send(handler, response.status, response.read())

    with _serve(reply, threading.Event()) as stub:
        yield stub
