"""One process at a time on an embedded data folder: an exclusive, non-blocking flock on
data_dir/warden.lock. The holder writes who it is (pid, command, URL) into the file so that a
refused command can say exactly what to do. Never waits; the kernel drops the lock if the
holder dies, so a stale file never blocks anyone."""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.settings import Settings

LOCK_FILE = "warden.lock"


@dataclass(frozen=True)
class LockHolder:
    pid: int | None
    command: str | None
    url: str | None


class DataDirBusy(Exception):
    """Another Warden process holds the data folder."""

    def __init__(self, data_dir: Path, holder: LockHolder) -> None:
        self.data_dir = data_dir
        self.holder = holder
        super().__init__(self.message())

    def message(self) -> str:
        holder, folder = self.holder, f"{self.data_dir}/"
        pid = f"pid {holder.pid}" if holder.pid else "another process"
        if holder.command == "serve":
            where = f" ({pid}, {holder.url})" if holder.url else f" ({pid})"
            return (
                f"the Warden service{where} holds {folder}; stop it first, "
                "or send questions to its API: POST /v1/chat"
            )
        what = f"'warden {holder.command}'" if holder.command else "another Warden process"
        return f"{what} ({pid}) is using {folder}; wait for it to finish, then try again"


def _owner_only(folder: Path) -> None:
    """The stores hold raw chat history and uploads: only their owner may enter the folder."""
    try:
        if folder.stat().st_uid == os.getuid():
            folder.chmod(0o700)
    except OSError:
        pass  # a read-only or foreign mount: the operator's permissions stand


class ProcessLock:
    """Context manager: `with ProcessLock(data_dir, command="serve", url=...)`."""

    def __init__(self, data_dir: Path, *, command: str, url: str | None = None) -> None:
        self.data_dir = data_dir
        self.path = data_dir / LOCK_FILE
        self.command = command
        self.url = url
        self._fd: int | None = None

    def acquire(self) -> None:
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        _owner_only(self.data_dir)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise DataDirBusy(self.data_dir, holder) from None
        self._fd = fd
        info = {"pid": os.getpid(), "command": self.command, "url": self.url}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.ftruncate(fd, 0)  # nobody holds it now; the empty file is harmless
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> ProcessLock:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def _read_holder(fd: int) -> LockHolder:
    try:
        info: Any = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict):
        info = {}
    pid = info.get("pid")
    return LockHolder(
        pid=pid if isinstance(pid, int) else None,
        command=str(info["command"]) if info.get("command") else None,
        url=str(info["url"]) if info.get("url") else None,
    )


class ReadOnlyHold:
    """A shared flock on data_dir/warden.lock, taken without creating or writing anything:
    a reader (`warden migrate`) that must never change the folder. Refused (DataDirBusy) while
    a Warden process holds it; while held, no Warden process can take the folder. A folder
    without the lock file has never been opened by Warden: nothing to wait for."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_FILE
        self.data_dir = data_dir
        self._fd: int | None = None

    def __enter__(self) -> ReadOnlyHold:
        if not self.path.exists():
            return self
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise DataDirBusy(self.data_dir, holder) from None
        self._fd = fd
        return self

    def __exit__(self, *_: object) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def data_dir_lock(
    settings: Settings, command: str, url: str | None = None
) -> AbstractContextManager[object]:
    """Holds data_dir/warden.lock while a command uses what only one process may open there.

    `serve` and `ask` always take it (the history outbox lives in data_dir); `ingest` and
    `reindex` only with the embedded vector index (with a Qdrant server they touch no
    single-process file).
    """
    if command in ("ingest", "reindex") and settings.qdrant_url:
        return nullcontext()
    if command == "users" and settings.mongodb_uri:  # touches no single-process file
        return nullcontext()
    return ProcessLock(settings.data_dir, command=command, url=url)
