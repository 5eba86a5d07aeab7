"""LangfuseTracer against a local OTLP/HTTP receiver on 127.0.0.1 (no Langfuse server here)."""

from __future__ import annotations

import gzip
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langfuse import propagate_attributes
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from service.adapters.tracing.langfuse_tracer import LangfuseTracer

OTLP_PATH = "/api/public/otel/v1/traces"
RAW_EMAIL, RAW_NAME = "asha.rao@example.com", "Asha Rao"
TRACE_ID = uuid.uuid4().hex


@dataclass
class Receiver:
    base_url: str
    posts: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)

    def payloads(self) -> list[bytes]:
        """Request bodies as sent, gunzipped where they were compressed."""
        return [
            gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body
            for _, headers, body in self.posts
        ]


def _receiver(hang: bool) -> Iterator[Receiver]:
    release = threading.Event()
    receiver = Receiver(base_url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {key.lower(): value for key, value in self.headers.items()}
            receiver.posts.append((self.path, headers, body))
            receiver.arrived.set()
            if hang:
                release.wait(timeout=30)
                return
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    receiver.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield receiver
    finally:
        release.set()
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from _receiver(hang=False)


@pytest.fixture
def silent_receiver() -> Iterator[Receiver]:
    yield from _receiver(hang=True)


def tracer_for(receiver: Receiver) -> LangfuseTracer:
    # langfuse keeps one client state per public key and process: a fresh key per test
    key = uuid.uuid4().hex[:8]
    return LangfuseTracer(
        public_key=f"pk-lf-{key}", secret_key=f"sk-lf-{key}", base_url=receiver.base_url
    )


def event(**extra: Any) -> dict[str, Any]:
    return {
        "event": "chat",
        "trace_id": TRACE_ID,
        "route": "question",
        "mode": "generated",
        "confidence": 72.5,
        "pii_found": True,
        "pii_entities": ["EMAIL_ADDRESS", "PERSON"],
        "tokens": {"prompt": 120, "completion": 40},
        "sources": 3,
        **extra,
    }


async def test_one_span_per_event_arrives_with_the_fields_as_metadata(receiver: Receiver) -> None:
    tracer = tracer_for(receiver)
    tracer.emit(event())
    await tracer.flush(timeout_s=5)
    await tracer.close(timeout_s=5)

    assert [path for path, _, _ in receiver.posts] == [OTLP_PATH]
    assert receiver.posts[0][1]["authorization"].startswith("Basic ")
    [payload] = receiver.payloads()
    request = ExportTraceServiceRequest.FromString(payload)
    [span] = [s for r in request.resource_spans for ss in r.scope_spans for s in ss.spans]
    assert span.name == "chat"
    assert span.trace_id.hex() == TRACE_ID  # the API's trace id is Langfuse's trace id
    attributes = {a.key: a.value.string_value for a in span.attributes}
    assert attributes["langfuse.observation.metadata.route"] == '"question"'
    assert attributes["langfuse.observation.metadata.confidence"] == "72.5"
    assert attributes["langfuse.observation.metadata.pii_entities"] == '["EMAIL_ADDRESS","PERSON"]'


async def test_raw_text_in_the_ambient_trace_context_is_not_picked_up(receiver: Receiver) -> None:
    """Langfuse copies attributes propagated in the current context (and OTel baggage) onto
    every span started in it: raw values planted there, not in the event, must not leave."""
    tracer = tracer_for(receiver)
    with propagate_attributes(
        user_id=RAW_EMAIL, session_id=RAW_NAME, metadata={"query": RAW_NAME}, as_baggage=True
    ):
        tracer.emit(event())
    await tracer.flush(timeout_s=5)
    await tracer.close(timeout_s=5)
    [payload] = receiver.payloads()
    assert b"question" in payload
    for raw in (RAW_EMAIL, RAW_NAME, "Asha", "example.com"):
        assert raw.encode() not in payload


async def test_free_text_slipped_into_an_event_is_masked(receiver: Receiver) -> None:
    tracer = tracer_for(receiver)
    tracer.emit(event(note=f"contact {RAW_NAME} at {RAW_EMAIL}", error="timeout"))
    await tracer.flush(timeout_s=5)
    await tracer.close(timeout_s=5)
    [payload] = receiver.payloads()
    assert b"[masked]" in payload and b"timeout" in payload and b"question" in payload
    for raw in (RAW_EMAIL, RAW_NAME, "Asha", "example.com"):
        assert raw.encode() not in payload


async def test_flush_to_a_silent_endpoint_gives_up_in_time_and_never_raises(
    silent_receiver: Receiver,
) -> None:
    tracer = tracer_for(silent_receiver)
    tracer.emit(event())
    started = time.perf_counter()
    await tracer.flush(timeout_s=0.2)
    elapsed = time.perf_counter() - started
    assert silent_receiver.arrived.wait(timeout=5)  # the export was attempted and is hanging
    tracer.emit(event())  # still usable
    await tracer.close(timeout_s=0.2)
    assert elapsed < 2  # 0.2 s asked; the exporter alone would wait for its 1 s timeout


async def test_built_from_the_environment_only_with_both_keys(receiver: Receiver) -> None:
    assert LangfuseTracer.from_env({}) is None
    assert LangfuseTracer.from_env({"LANGFUSE_PUBLIC_KEY": "pk-lf-x"}) is None
    key = uuid.uuid4().hex[:8]
    environ = {
        "LANGFUSE_PUBLIC_KEY": f"pk-lf-{key}",
        "LANGFUSE_SECRET_KEY": f"sk-lf-{key}",
        "LANGFUSE_BASE_URL": receiver.base_url,
    }
    tracer = LangfuseTracer.from_env(environ)
    assert isinstance(tracer, LangfuseTracer)
    await tracer.close(timeout_s=1)
