"""Acceptance 1 of `warden migrate`: an embedded deployment (sample knowledge base, three
users with uploads and history, one expired upload) moves to the server adapters, here
qdrant-client's local mode and PyMongo over the wire to mongoeco's server. Counts match, 20
questions give the same sources on both sides, a second run changes nothing, a run that
fails or is killed half-way ends the same when run again, and the source never changes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pipelines.ports import Embedder, PiiDetector
from service.adapters.store.mongo_open import open_server_store
from service.adapters.vector.qdrant_server import QdrantServerIndex
from service.bootstrap import build_container, open_detector, open_embedder
from service.bootstrap.migration import open_migration
from service.cli.migrate import run_migrate
from service.process_lock import ProcessLock
from tests.e2e.conftest import Prepared, copy_data, settings_for, warden
from tests.e2e.migration_kit import (
    UPLOAD_QUESTIONS,
    USERS,
    carry_files,
    folder_state,
    kb_questions,
    populate,
    same_sources,
    spot_check,
)
from tests.wire_server import WireServerThread

HISTORY_MESSAGES = 3 * 3 * 2  # users x turns x (question, answer)


@dataclass(frozen=True)
class Source:
    data: Path
    embedder: Embedder
    detector: PiiDetector
    questions: list[tuple[str, str]]  # (question, user id)
    sources: list[Any]  # what each question retrieved on the embedded stores
    users: list[Any]
    documents: list[Any]
    history: list[Any]


async def _records(store: Any, ids: list[str]) -> tuple[list[Any], list[Any], list[Any]]:
    now = datetime.now(UTC)
    users = [await store.user_by_email(email) for email, _ in USERS]
    documents = [await store.user_documents(uid, now=now) for uid in ids]
    since = now - timedelta(days=30)
    history = [await store.recent_history(uid, since=since, limit=100) for uid in ids]
    return users, documents, history


async def _prepare(data: Path) -> Source:
    embedder, detector = await open_embedder(), await open_detector()
    ids = await populate(data, embedder, detector)
    kb = kb_questions()
    questions = [(q, ids[i % 3]) for i, q in enumerate(kb)]
    questions += list(zip(UPLOAD_QUESTIONS, ids, strict=True))
    container = await build_container(settings_for(data), embedder=embedder, detector=detector)
    try:
        found = await spot_check(container.deps, questions)
        users, documents, history = await _records(container.store, ids)
    finally:
        await container.close()
    return Source(data, embedder, detector, questions, found, users, documents, history)


@pytest.fixture(scope="module")
def source(prepared: Prepared, tmp_path_factory: pytest.TempPathFactory) -> Source:
    data = copy_data(prepared.data, tmp_path_factory.mktemp("migrate-source"))
    return asyncio.run(_prepare(data))


@pytest.fixture
def mongo_uri(tmp_path: Path) -> Iterator[str]:
    server = WireServerThread(tmp_path)
    yield server.start()
    server.close()


class Fault(Exception):
    pass


async def _failing_run(source: Source, qdrant: str, uri: str) -> None:
    """Stops with an error after the second batch of the history (the fault hook)."""

    def fail_mid_copy(name: str, done: int, total: int) -> None:
        if name == "chat_history" and done >= 4:
            raise Fault

    settings = settings_for(source.data)
    async with open_migration(settings, to_qdrant=qdrant, to_mongodb=uri) as plan:
        await run_migrate(
            plan, now=datetime.now(UTC), batch_size=2, as_json=True, progress=fail_mid_copy
        )


async def _target_view(source: Source, folder: Path, uri: str) -> tuple[list[Any], ...]:
    carry_files(source.data, folder / "data")
    index = await QdrantServerIndex.connect(
        dimension=source.embedder.dimension, path=str(folder / "qdrant")
    )
    container = await build_container(
        settings_for(folder / "data"),
        embedder=source.embedder,
        detector=source.detector,
        index=index,
        store=await open_server_store(uri),
    )
    try:
        found = await spot_check(container.deps, source.questions)
        ids = [u.id for u in source.users]
        return found, *(await _records(container.store, ids))
    finally:
        await container.close()


def _counts(report: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {name: (c["source"], c["target"]) for name, c in report["counts"].items()}


def _migrate(source: Source, qdrant: str, uri: str) -> dict[str, Any]:
    run = warden(source.data, "migrate", "--to-qdrant", qdrant, "--to-mongodb", uri, "--json")
    assert run.code == 0, run.err
    assert "[vectors] " in run.err and "allowlist.json" in run.err  # progress, files by hand
    report: dict[str, Any] = run.json()
    return report


def test_everything_moves_and_a_second_run_changes_nothing(
    source: Source, tmp_path: Path, mongo_uri: str
) -> None:
    before = folder_state(source.data)
    qdrant = f"file:{tmp_path / 'qdrant'}"
    with pytest.raises(Fault):
        asyncio.run(_failing_run(source, qdrant, mongo_uri))

    resumed = _migrate(source, qdrant, mongo_uri)
    counts = _counts(resumed)
    assert resumed["verified"] and resumed["resumed"]
    assert counts["users"] == (3, 3) and counts["documents"] == (3, 3)  # not the expired one
    assert counts["chat_history"] == (HISTORY_MESSAGES, HISTORY_MESSAGES)
    vectors, _ = counts["vectors"]
    assert counts["vectors"] == (vectors, vectors) and vectors > 0

    again = _migrate(source, qdrant, mongo_uri)
    assert not again["resumed"] and again["counts"] == resumed["counts"]
    assert folder_state(source.data) == before  # every byte and mtime of the source

    found, users, documents, history = asyncio.run(_target_view(source, tmp_path, mongo_uri))
    assert len(found) == 20 and all(found)
    assert same_sources(found, source.sources)
    assert not same_sources(found, source.sources[1:] + source.sources[:1])  # it can fail
    assert [s[0][0] for s in found[-3:]] == ["Asha-notes.txt", "Ravi-notes.txt", "Meena-notes.txt"]
    assert users == source.users  # password hashes too: the accounts sign in as before
    assert documents == source.documents and all(len(d) == 1 for d in documents)  # expiry kept
    assert history == source.history and sum(map(len, history)) == HISTORY_MESSAGES


def test_a_migration_killed_half_way_ends_the_same_when_run_again(
    source: Source, tmp_path: Path, mongo_uri: str
) -> None:
    before = folder_state(source.data)
    qdrant = f"file:{tmp_path / 'qdrant'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    env |= {"WARDEN_DATA_DIR": str(source.data), "TMPDIR": str(tmp_path)}
    argv = ["migrate", "--to-qdrant", qdrant, "--to-mongodb", mongo_uri, "--batch-size", "16"]
    process = subprocess.Popen(
        [sys.executable, "-m", "service.main", *argv],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    for line in process.stderr:  # "[vectors] 48/..." : three batches written
        if line.startswith("[vectors] ") and int(line.split()[1].split("/")[0]) >= 48:
            process.kill()
            break
    assert process.wait(timeout=30) == -9, "the migration ended before it could be killed"

    report = _migrate(source, qdrant, mongo_uri)
    assert report["verified"] and report["resumed"]
    counts = _counts(report)
    assert counts["users"] == (3, 3) and counts["documents"] == (3, 3)
    assert counts["chat_history"] == (HISTORY_MESSAGES, HISTORY_MESSAGES)
    assert counts["vectors"][0] == counts["vectors"][1] > 48
    assert folder_state(source.data) == before


def _refusal(data: Path) -> str:
    run = warden(data, "migrate", "--to-qdrant", "file::memory:", "--to-mongodb", "mongodb://x")
    assert run.code == 2 and run.out == ""
    return run.err


def test_a_source_in_use_is_refused_without_touching_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with ProcessLock(data, command="serve", url="http://127.0.0.1:8000"):
        before = folder_state(data)
        assert "stop it first" in _refusal(data)
        assert folder_state(data) == before


def test_turns_waiting_in_the_outbox_are_not_left_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "outbox").mkdir(parents=True)
    (data / "outbox" / "history-outbox.jsonl").write_text('{"turn": []}\n')
    assert "replays them" in _refusal(data)


def test_a_missing_source_is_refused(tmp_path: Path) -> None:
    assert "no embedded deployment" in _refusal(tmp_path / "nothing-here")


def test_a_batch_size_below_one_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    run = warden(
        data,
        "migrate",
        "--to-qdrant",
        "file::memory:",
        "--to-mongodb",
        "mongodb://x",
        "--batch-size",
        "0",
    )
    assert run.code == 2 and "--batch-size" in run.err


@pytest.mark.filterwarnings("ignore:Failed to obtain server version:UserWarning")
def test_an_unreachable_target_stops_with_a_clear_message(
    source: Source, tmp_path: Path, mongo_uri: str
) -> None:
    before = folder_state(source.data)
    run = warden(
        source.data, "migrate", "--to-qdrant", "http://127.0.0.1:9", "--to-mongodb", mongo_uri
    )
    assert run.code == 2 and "vector index failed" in run.err and run.out == ""
    assert folder_state(source.data) == before
