"""`warden` argument parsing, the data-folder lock, and `ask`/`ingest` over fakes."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from service.auth.passwords import Passwords
from service.bootstrap import build_container, open_knowledge
from service.chat import ChatService
from service.cli.ask import ask
from service.cli.ingest import ingest
from service.container import Container
from service.main import build_parser, configure_logging, main
from service.process_lock import DataDirBusy, ProcessLock
from service.settings import Settings
from tests.api.conftest import shipped_config
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex
from tests.spec_fields import ASK_FIELDS


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in list(os.environ):
        if name.startswith("WARDEN_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARDEN_DATA_DIR", str(tmp_path / "data"))
    yield tmp_path / "data"


def settings_for(data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"data_dir": data_dir, "jwt_secret": "s" * 64, **overrides}
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def fake_chat(settings: Settings) -> ChatService:
    return (await fake_container(settings)).chat


async def fake_container(settings: Settings) -> Container:
    return await build_container(
        settings,
        embedder=FakeEmbedder(),
        index=FakeVectorIndex(),
        detector=FakePiiDetector(),
        store=FakeStore(),
        tracer=RecordingTracer(),
        passwords=Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)),
        config=shipped_config(),
    )


# ---------------------------------------------------------------- parsing


def test_parser_defaults_and_options() -> None:
    parser = build_parser()
    serve = parser.parse_args(["serve"])
    assert (serve.command, serve.host, serve.port) == ("serve", "127.0.0.1", 8000)
    assert parser.parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"]).port == 9000

    ingest = parser.parse_args(["ingest", "docs", "more/a.pdf", "--delete-missing", "--json"])
    assert ingest.paths == [Path("docs"), Path("more/a.pdf")]
    assert ingest.delete_missing and ingest.json

    ask = parser.parse_args(["ask", "What is bail?"])
    assert (ask.question, ask.user, ask.name, ask.json) == ("What is bail?", "cli", "", False)
    batch = parser.parse_args(["ask", "--user", "u-1", "--name", "Asha", "--json"])
    assert (batch.question, batch.user, batch.name, batch.json) == (None, "u-1", "Asha", True)


@pytest.mark.parametrize("argv", [[], ["ingest"], ["serve", "--port", "x"], ["bogus"]])
def test_bad_usage_exits_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2


def test_invalid_configuration_is_reported_without_its_value(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WARDEN_JWT_SECRET", "short-planted-secret")
    assert main(["ask", "hi"]) == 2
    err = capsys.readouterr().err
    assert "jwt_secret" in err and "short-planted-secret" not in err


# ---------------------------------------------------------------- the lock


@pytest.mark.parametrize("command", [["ask", "What is bail?"], ["ingest", "docs"], ["serve"]])
def test_a_held_data_folder_is_refused_at_once(
    data_dir: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with ProcessLock(data_dir, command="serve", url="http://127.0.0.1:8000"):
        assert main(command) == 2
    err = capsys.readouterr().err
    assert f"the Warden service (pid {os.getpid()}, http://127.0.0.1:8000) holds {data_dir}/" in err
    assert "POST /v1/chat" in err


def test_the_lock_held_by_another_process_is_refused(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from service.process_lock import ProcessLock
        with ProcessLock(Path({str(data_dir)!r}), command="serve", url="http://127.0.0.1:8123"):
            print("held", flush=True)
            sys.stdin.read()
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen(
        [sys.executable, "-c", holder],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        assert main(["ask", "What is bail?"]) == 2
        assert f"pid {child.pid}, http://127.0.0.1:8123" in capsys.readouterr().err
    finally:
        child.communicate("", timeout=10)
    with ProcessLock(data_dir, command="ask"):  # released when the holder exited
        pass


def test_lock_is_free_again_after_release(data_dir: Path) -> None:
    with ProcessLock(data_dir, command="ingest"):
        pass
    with ProcessLock(data_dir, command="serve", url="http://x") as lock:
        assert json.loads(lock.path.read_text())["command"] == "serve"


def test_the_data_folder_is_made_owner_only(tmp_path: Path) -> None:
    existing = tmp_path / "shared"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    for folder in (existing, tmp_path / "fresh"):
        with ProcessLock(folder, command="serve"):
            assert folder.stat().st_mode & 0o777 == 0o700


def test_presidio_never_logs_text_below_warning() -> None:
    configure_logging("serve")
    assert logging.getLogger("presidio-analyzer").getEffectiveLevel() >= logging.WARNING


# ---------------------------------------------------------------- ask and ingest over fakes


async def test_ask_one_question_as_json(data_dir: Path) -> None:
    out = io.StringIO()
    code = await ask(
        await fake_chat(settings_for(data_dir)), "What is bail?", "cli", "", True, out=out
    )
    result = json.loads(out.getvalue())
    assert code == 0
    assert set(result) >= ASK_FIELDS
    assert result["route"] == "question" and result["mode"] == "abstained"  # empty knowledge base


async def test_ask_reads_json_lines_and_writes_one_line_each(data_dir: Path) -> None:
    lines = [
        {"question": "What is bail?", "user": "u-1", "name": "Asha"},
        "not json",
        {"question": "hello"},
        {"nothing": "here"},
    ]
    stdin = io.StringIO("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    out = io.StringIO()
    code = await ask(
        await fake_chat(settings_for(data_dir)), None, "cli", "", False, stdin=stdin, out=out
    )
    results: list[dict[str, Any]] = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 1  # two lines were bad
    assert len(results) == 4
    assert set(results[0]) >= ASK_FIELDS and set(results[2]) >= ASK_FIELDS
    assert results[1]["error"] == "malformed_json" and results[3]["error"] == "invalid_request"


async def test_ask_applies_the_message_cap(data_dir: Path) -> None:
    out = io.StringIO()
    settings = settings_for(data_dir, max_message_chars=10)
    code = await ask(await fake_chat(settings), "x" * 11, "cli", "", True, out=out)
    assert code == 1 and json.loads(out.getvalue())["error"] == "message_too_large"


async def test_ingest_counts_and_rebuilds_the_allowlist(data_dir: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "help.md").write_text(
        "# Help\n\nCall the helpline at +91 98765 43210 for free legal aid.\n"
    )
    (docs / "bail.txt").write_text(
        "Bail is the temporary release of an accused person awaiting trial.\n"
    )
    index, embedder, detector = FakeVectorIndex(), FakeEmbedder(), FakePiiDetector()
    settings = settings_for(data_dir)

    async def run() -> dict[str, int]:
        out = io.StringIO()
        knowledge = await open_knowledge(
            settings, embedder=embedder, index=index, detector=detector
        )
        code = await ingest(knowledge, [docs], False, True, out=out, err=io.StringIO())
        assert code == 0
        return dict(json.loads(out.getvalue()))

    assert await run() == {"added": 2, "replaced": 0, "skipped": 0, "removed": 0}
    index.closed = False  # the fake refuses to serve once closed; a real run reopens it
    assert await run() == {"added": 0, "replaced": 0, "skipped": 2, "removed": 0}
    allowlist = json.loads((data_dir / "allowlist.json").read_text())
    assert allowlist["terms"] == ["+91 98765 43210"]
    assert set(allowlist["documents"]) == {"help.md", "bail.txt"}


def test_ingest_against_a_qdrant_server_needs_no_lock(data_dir: Path) -> None:
    from service.main import data_dir_lock

    server = settings_for(data_dir, qdrant_url="http://127.0.0.1:6333")
    with ProcessLock(data_dir, command="serve", url="http://127.0.0.1:8000"):
        with data_dir_lock(server, "ingest"):
            pass  # not refused: it opens nothing single-process in data_dir
        with pytest.raises(DataDirBusy):
            data_dir_lock(server, "ask").__enter__()  # the history outbox is still local


@pytest.mark.parametrize(
    ("safety_yaml", "said"),
    [
        ("thresholds:\n  toxicity_threshold: 0.7\n  toxicity_threshold: 0.8\n", "line 3"),
        ("thresholds:\n  toxicity_threshold: abc\n", "must be a number"),
        ("thresholds: [\n", "expected the node content"),
    ],
)
def test_a_bad_safety_yaml_is_named_with_exit_2(
    safety_yaml: str,
    said: str,
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "safety.yaml").write_text(safety_yaml, encoding="utf-8")
    monkeypatch.setenv("WARDEN_CONFIG_DIR", str(config))
    assert main(["classify", "hello"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"warden: {config / 'safety.yaml'}: ") and said in err
