"""A slow OpenAI-compatible chat server on 127.0.0.1, for the browser tests.

It answers a question by copying one sentence of passage [1] (so the answer gate passes it)
and streams it a word at a time, `delay_s` apart; `finished` counts the streams it has ended,
so a test can see the page show words before the model is done. `markup`, when set, is put
inside the next answers as the model's own text; `failing` makes it answer 503. Greetings get
a short fixed reply.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

GREETING_REPLY = "Hello! Good to see you. Ask me anything about the knowledge base."
_PASSAGE_ONE = re.compile(r"\[1\] (.*?)(?:\n\n\[2\] |\n</passages>)", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass
class FakeModel:
    url: str = ""  # base URL, ends in /v1
    delay_s: float = 0.02  # between streamed words
    markup: str = ""  # put into the middle of the next answers, as written by the model
    failing: bool = False  # answer every chat request with a 503
    started: int = 0
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def answer_for(messages: list[dict[str, Any]], markup: str = "") -> str:
    """One sentence of passage [1] (8 to 40 words), cited; with `markup` inside it."""
    system = str(messages[0].get("content", "")) if messages else ""
    if "greeted you" in system:
        return GREETING_REPLY
    prompt = str(messages[-1].get("content", "")) if messages else ""
    found = _PASSAGE_ONE.search(prompt)
    if found is None:
        return "I could not find this in the knowledge base."
    sentences = [s.strip(" #*-") for s in _SENTENCE_END.split(found.group(1))]
    chosen = next((s for s in sentences if 8 <= len(s.split()) <= 40), sentences[0])
    words = chosen.rstrip(".!?").split()
    if markup:
        words.insert(len(words) // 2, markup)
    return " ".join(words) + " [1]."


def _chunk(delta: dict[str, Any], usage: dict[str, int] | None = None) -> bytes:
    body = {
        "id": "fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "fake",
        "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": None}],
        "usage": usage,
    }
    return f"data: {json.dumps(body)}\n\n".encode()


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # /v1/models, the readiness probe
            self._json({"object": "list", "data": [{"id": "fake", "object": "model"}]})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = json.loads(self.rfile.read(length) or b"{}")
            if model.failing:
                self._json({"error": {"message": "down", "type": "server_error"}}, 503)
                return
            text = answer_for(request.get("messages", []), model.markup)
            if not request.get("stream"):
                self._json(
                    {
                        "id": "fake",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": "fake",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": text},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                    }
                )
                return
            with model.lock:
                model.started += 1
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            words = text.split(" ")
            for number, word in enumerate(words):
                piece = word if number == 0 else " " + word
                self.wfile.write(_chunk({"role": "assistant", "content": piece}))
                self.wfile.flush()
                time.sleep(model.delay_s)
            usage = {"prompt_tokens": 10, "completion_tokens": len(words), "total_tokens": 0}
            self.wfile.write(_chunk({}, usage) + b"data: [DONE]\n\n")
            self.wfile.flush()
            with model.lock:
                model.finished += 1
            self.close_connection = True

        def _json(self, body: dict[str, Any], status: int = 200) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("retry-after-ms", "1")  # the client's retries come at once
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def fake_model() -> Iterator[FakeModel]:
    model = FakeModel()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    httpd.daemon_threads = True
    model.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield model
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
