"""End-to-end kit: the real `warden` CLI on the embedded defaults (Qdrant Edge, mongoeco on
SQLite, ONNX MiniLM, Presidio), driven in-process through `service.main.main` where one process
is enough, and as subprocesses where a separate process is the point.

The sample knowledge base is ingested once per session (`prepared`); a test that asks
questions (every ask writes history) works on its own copy of that data folder. Embedded
stores lock their folder, so a folder is never opened by two processes at once.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.main import main
from service.settings import Settings
from tests.integration.llm_server import llm_server
from tests.spec_fields import ASK_FIELDS

__all__ = ["llm_server"]

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_KB = ROOT / "sample_kb"
SAMPLE_DOCS = 14
COUNTS = {"added", "replaced", "skipped", "removed"}
# SPEC section 4: every field of `warden ask --json`
SOURCE_FIELDS = {"source", "page", "parent_id", "preview", "score"}
CALL_KINDS = {"llm", "embed", "vector", "store"}
EVENTS_LOGGER = "warden.events"

BAIL_QUESTION = "How do I get bail for a bailable offence?"
ABUSE = "You are a useless idiot."
GREETING = "Good morning!"
EMAIL, PHONE, CARD = "asha.rao@example.org", "+91 98765 43210", "4111 1111 1111 1111"
PII_QUESTION = (
    f"My email is {EMAIL} and my phone is {PHONE}. I paid with card {CARD} and was cheated: "
    "how do I file a consumer complaint?"
)
RAW_PII = (EMAIL, PHONE, "98765 43210", "9876543210", CARD, CARD.replace(" ", ""))


@dataclass(frozen=True)
class Run:
    """What one in-process `warden ...` printed."""

    code: int
    out: str
    err: str
    events: list[str]  # the lines logged by the `warden.events` tracer logger

    def json(self) -> Any:
        return json.loads(self.out)

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.splitlines()]


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def warden_env(data_dir: Path, **variables: str) -> Iterator[None]:
    """Only these WARDEN_ variables, and a working folder without a .env file."""
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith(("WARDEN_", "LANGFUSE_")):
                patch.delenv(name)
        patch.setenv("WARDEN_DATA_DIR", str(data_dir))
        for name, value in variables.items():
            patch.setenv(f"WARDEN_{name.upper()}", value)
        patch.chdir(data_dir.parent)
        yield


def warden(data_dir: Path, *argv: str, stdin: str | None = None, **variables: str) -> Run:
    """Runs `warden ARGV...` in this process (one container build, ~1-2 s with warm models)."""
    out, err, events = io.StringIO(), io.StringIO(), _Lines()
    logger = logging.getLogger(EVENTS_LOGGER)
    old_level = logger.level
    logger.addHandler(events)
    logger.setLevel(logging.INFO)
    try:
        with (
            warden_env(data_dir, **variables),
            pytest.MonkeyPatch.context() as patch,
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            patch.setattr("sys.stdin", io.StringIO(stdin or ""))
            code = main(list(argv))
    finally:
        logger.removeHandler(events)
        logger.setLevel(old_level)
    return Run(code, out.getvalue(), err.getvalue(), events.lines)


def json_lines(*items: dict[str, str]) -> str:
    return "".join(json.dumps(item) + "\n" for item in items)


def settings_for(data_dir: Path, **overrides: Any) -> Settings:
    """Settings as the CLI would read them, without the environment or a .env file."""
    return Settings(_env_file=None, data_dir=data_dir, **overrides)  # type: ignore[call-arg]


def copy_data(source: Path, target_parent: Path) -> Path:
    """A private copy of an ingested data folder (~2 MB, a few ms)."""
    target = target_parent / "data"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("warden.lock"))
    return target


def assert_ask_fields(result: dict[str, Any]) -> None:
    assert result.keys() >= ASK_FIELDS, ASK_FIELDS - result.keys()
    assert set(result["calls"]) == CALL_KINDS
    assert all(isinstance(n, int) and n >= 0 for n in result["calls"].values())
    for source in result["sources"]:
        assert source.keys() >= SOURCE_FIELDS


def distinct_parents(sources: Sequence[dict[str, Any]]) -> bool:
    return len({s["parent_id"] for s in sources}) == len(sources)


@dataclass(frozen=True)
class Prepared:
    """The sample knowledge base copied to `kb` and ingested into `data`."""

    kb: Path
    data: Path
    first_ingest: Run


@pytest.fixture(scope="session")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    """Ingested once per session. Only the ingest test may touch `kb` (doc ids and
    --delete-missing are tied to this folder's absolute path); others copy `data`."""
    base = tmp_path_factory.mktemp("prepared")
    kb = base / "kb"
    shutil.copytree(SAMPLE_KB, kb)
    run = warden(base / "data", "ingest", str(kb), "--json")
    assert run.code == 0, run.err
    return Prepared(kb=kb, data=base / "data", first_ingest=run)
