"""The API over fakes (as in conftest's `make_kit`) and the real embedded store, served by a
real uvicorn on 127.0.0.1 in a thread with its own event loop, for clients that are separate
programs (schemathesis)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from service.app import create_app
from service.bootstrap import build_container
from service.http.header_limit import HeaderCappedProtocol
from tests.api.conftest import CHEAP_PASSWORDS, make_settings, shipped_config
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex
from tests.unit._pipeline_kit import seed_core


async def _serve(tmp_path: Path, overrides: dict[str, Any], ready: Any, stop: Any) -> None:
    embedder, index = FakeEmbedder(), FakeVectorIndex()
    await seed_core(index, embedder)
    container = await build_container(
        make_settings(tmp_path, **overrides),
        embedder=embedder,
        index=index,
        detector=FakePiiDetector(),
        # the real embedded store (mongoeco on SQLite): /v1/me erases through it
        tracer=RecordingTracer(),
        passwords=CHEAP_PASSWORDS,
        config=shipped_config(),
    )
    config = uvicorn.Config(
        create_app(container), host="127.0.0.1", port=0, http=HeaderCappedProtocol,
        log_level="warning",
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn has no event
        await asyncio.sleep(0.01)
    ready(server.servers[0].sockets[0].getsockname()[1])
    await asyncio.to_thread(stop.wait)
    server.should_exit = True
    await task
    await container.close()


@contextlib.contextmanager
def served_on_loopback(tmp_path: Path, **overrides: Any) -> Iterator[str]:
    """The base URL of the running service; stopped (and its container closed) on exit."""
    ports: list[int] = []
    started, stop = threading.Event(), threading.Event()

    def ready(port: int) -> None:
        ports.append(port)
        started.set()

    thread = threading.Thread(
        target=lambda: asyncio.run(_serve(tmp_path, overrides, ready, stop)), daemon=True
    )
    thread.start()
    assert started.wait(30), "the service did not start"
    try:
        yield f"http://127.0.0.1:{ports[0]}"
    finally:
        stop.set()
        thread.join(30)
