"""`warden backup` / `warden restore` on plain folders: what is copied, what is refused and
why (the stores themselves are covered by tests/e2e/test_backup_e2e.py)."""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.cli.backup import backup, restore
from service.cli.backup_files import FILES_DIR, MANIFEST
from service.main import main
from service.process_lock import ProcessLock
from service.settings import Settings

WAL_BYTES = 32 << 20


def settings_for(data: Path) -> Settings:
    return Settings(_env_file=None, data_dir=data)  # type: ignore[call-arg]


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder shaped like the embedded stores leave it."""
    root = tmp_path / "data"
    (root / "qdrant" / "wal").mkdir(parents=True)
    (root / "mongoeco").mkdir()
    (root / "qdrant" / "edge_config.json").write_text('{"vectors": 384}')
    with (root / "qdrant" / "wal" / "open-1").open("wb") as wal:  # preallocated, mostly holes
        wal.write(b"entry")
        wal.truncate(WAL_BYTES)
    (root / "mongoeco" / "warden.sqlite").write_bytes(os.urandom(5000))
    secret = root / "jwt_secret"
    secret.write_text("s3cret")
    secret.chmod(0o600)
    for lock in ("warden.lock", "mongoeco/LOCK", "qdrant/.warden.lock"):
        (root / lock).write_text("")
    return root


def test_backup_then_restore_gives_the_same_files(data: Path, tmp_path: Path) -> None:
    copy, restored = tmp_path / "backup", tmp_path / "restored"
    assert backup(settings_for(data), copy) == 0
    assert restore(settings_for(restored), copy) == 0

    kept = {k: v for k, v in files_of(data).items() if not k.endswith(("LOCK", ".lock"))}
    assert files_of(restored).keys() - {"warden.lock"} == kept.keys()
    assert {k: files_of(restored)[k] for k in kept} == kept  # lock files are never copied
    assert (restored / "jwt_secret").stat().st_mode & 0o777 == 0o600
    wal = restored / "qdrant" / "wal" / "open-1"
    assert wal.stat().st_size == WAL_BYTES and wal.stat().st_blocks * 512 < 1 << 20  # sparse
    assert copy.stat().st_mode & 0o777 == 0o700
    manifest = json.loads((copy / MANIFEST).read_text())
    assert {f["path"] for f in manifest["files"]} == set(kept)


def test_the_cli_registers_both_commands(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARDEN_DATA_DIR", str(data))
    assert main(["backup", str(tmp_path / "b")]) == 0
    monkeypatch.setenv("WARDEN_DATA_DIR", str(tmp_path / "new"))
    assert main(["restore", str(tmp_path / "b")]) == 0
    assert "backed up 4 files" in capsys.readouterr().out


@pytest.fixture
def serving(data: Path) -> Iterator[None]:
    with ProcessLock(data, command="serve", url="http://127.0.0.1:8000"):
        yield


@pytest.mark.usefixtures("serving")
def test_both_refuse_while_the_service_runs(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert backup(settings_for(data), tmp_path / "b") == 2
    err = capsys.readouterr().err
    assert "refused: the Warden service (pid" in err and "http://127.0.0.1:8000" in err
    assert "stop the service" in err
    assert not (tmp_path / "b").exists()

    other = tmp_path / "other"
    assert backup(settings_for(other.parent / "src"), other) == 2  # no such data folder
    (tmp_path / "ok").mkdir()
    before = files_of(data)
    assert restore(settings_for(data), tmp_path / "ok") == 2  # not a backup
    assert files_of(data) == before


def test_a_store_open_in_another_process_is_refused(data: Path, tmp_path: Path) -> None:
    with (data / "mongoeco" / "LOCK").open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as an open store holds it
        assert backup(settings_for(data), tmp_path / "b") == 2
    assert backup(settings_for(data), tmp_path / "b") == 0


def test_restore_refuses_a_non_empty_data_folder_unless_forced(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy, target = tmp_path / "backup", tmp_path / "target"
    assert backup(settings_for(data), copy) == 0
    target.mkdir()
    (target / "notes.txt").write_text("someone else's")
    assert restore(settings_for(target), copy) == 2
    assert "is not empty" in capsys.readouterr().err
    assert (target / "notes.txt").exists()
    assert restore(settings_for(target), copy, force=True) == 0
    assert not (target / "notes.txt").exists()
    assert (target / "jwt_secret").read_text() == "s3cret"


def test_backup_refuses_a_non_empty_or_overlapping_folder(data: Path, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert backup(settings_for(data), tmp_path / "full") == 2
    assert backup(settings_for(data), data / "backup") == 2
    assert not (data / "backup").exists()


def test_a_damaged_or_incomplete_backup_is_refused_before_anything_is_written(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "backup"
    assert backup(settings_for(data), copy) == 0
    (copy / FILES_DIR / "mongoeco" / "warden.sqlite").write_bytes(b"bit rot")
    assert restore(settings_for(tmp_path / "a"), copy) == 2
    assert "warden.sqlite differs" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()

    (copy / MANIFEST).unlink()  # as an interrupted backup leaves it
    assert restore(settings_for(tmp_path / "b"), copy) == 2
    assert "no complete Warden backup" in capsys.readouterr().err
