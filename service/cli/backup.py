"""`warden backup DIR` and `warden restore DIR [--force]`: the data folder, copied whole.

A copy of the embedded stores is consistent only if nothing writes while it is taken, so both
commands take the data folder's lock (service/process_lock.py) and refuse, saying so, while
`warden serve` or another Warden command holds it (or while a store in the folder is open in
some other process): stop the service, back up, start it again. The copy holds everything
in the data folder but its lock files: the vector index (Qdrant Edge), the store (mongoeco's
SQLite file: accounts, history, upload records), the token secret, key files and the history
outbox. Restore checks the whole backup against its manifest before writing anything, and
writes only into an empty data folder (with --force: one it empties first).
Stores on servers (WARDEN_QDRANT_URL, WARDEN_MONGODB_URI) are not in the data folder: back
them up with their own tools; both commands say so.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from service.cli.backup_files import (
    FILES_DIR,
    BackupError,
    check_copy,
    copy_file,
    data_files,
    entries_besides,
    open_stores,
    read_manifest,
    remove,
    write_manifest,
)
from service.process_lock import LOCK_FILE, DataDirBusy, ProcessLock
from service.settings import Settings


def backup(settings: Settings, target: Path, *, out: TextIO | None = None) -> int:
    """Copies the data folder into `target` (new or empty). 0 done, 2 refused."""
    data = settings.data_dir
    try:
        if not data.is_dir():
            raise BackupError(f"{data}/ does not exist: there is nothing to back up")
        _refuse_overlap(data, target)
        if entries_besides(target, frozenset()):
            raise BackupError(f"{target} is not empty: back up into a new or empty folder")
        with ProcessLock(data, command="backup"):
            _refuse_open_stores(data)
            files = data_files(data)
            target.mkdir(mode=0o700, parents=True, exist_ok=True)
            target.chmod(0o700)  # it holds personal data and secrets
            entries = [copy_file(data, target / FILES_DIR, name) for name in files]
            write_manifest(target, entries, datetime.now(UTC).isoformat())
    except (BackupError, DataDirBusy, OSError) as error:
        return _refused("backup", error, data)
    megabytes = sum(e.size for e in entries) / 1e6
    print(
        f"backed up {len(entries)} files ({megabytes:.1f} MB) from {data}/ to {target}",
        file=out or sys.stdout,
    )
    _server_notes(settings)
    return 0


def restore(
    settings: Settings, source: Path, *, force: bool = False, out: TextIO | None = None
) -> int:
    """Copies the backup in `source` into the (empty) data folder. 0 done, 2 refused."""
    data = settings.data_dir
    try:
        _refuse_overlap(data, source)
        entries = read_manifest(source)
        check_copy(source / FILES_DIR, entries)
        with ProcessLock(data, command="restore"):
            present = entries_besides(data, frozenset({LOCK_FILE}))
            if present and not force:
                raise BackupError(
                    f"{data}/ is not empty: restore writes only into an empty data folder "
                    "(--force replaces what it holds)"
                )
            _refuse_open_stores(data)
            remove(present)
            for entry in entries:
                copy_file(source / FILES_DIR, data, entry.path)
    except (BackupError, DataDirBusy, OSError) as error:
        return _refused("restore", error, data)
    print(f"restored {len(entries)} files from {source} into {data}/", file=out or sys.stdout)
    _server_notes(settings)
    return 0


def _refuse_overlap(data: Path, other: Path) -> None:
    data, other = data.resolve(), other.resolve()
    if data == other or data in other.parents or other in data.parents:
        raise BackupError(f"{other} and the data folder {data}/ must not contain one another")


def _refuse_open_stores(data: Path) -> None:
    held = open_stores(data)
    if held:
        raise BackupError(
            f"a store in {data}/ is open in another process ({', '.join(held)}): "
            "stop it first (a copy is consistent only while nothing writes)"
        )


def _refused(command: str, error: Exception, data: Path) -> int:
    if isinstance(error, DataDirBusy) and error.holder.command == "serve":
        holder = error.holder
        who = f"pid {holder.pid}" + (f", {holder.url}" if holder.url else "")
        reason = (
            f"the Warden service ({who}) is running on {data}/, and a copy is consistent only "
            f"while nothing writes: stop the service, run `warden {command}`, then start it again"
        )
    elif isinstance(error, DataDirBusy):
        reason = error.message()
    elif isinstance(error, OSError):
        reason = f"{error.strerror or type(error).__name__}: {error.filename or ''}".rstrip(": ")
        print(f"warden {command}: failed: {reason}", file=sys.stderr)
        return 2
    else:
        reason = str(error)
    print(f"warden {command}: refused: {reason}", file=sys.stderr)
    return 2


def _server_notes(settings: Settings) -> None:
    if settings.qdrant_url:
        print(
            "note: the vector index is on the Qdrant server (WARDEN_QDRANT_URL), not in the data "
            "folder: back it up with Qdrant's snapshots",
            file=sys.stderr,
        )
    if settings.mongodb_uri:
        print(
            "note: the store is on the MongoDB server (WARDEN_MONGODB_URI), not in the data "
            "folder: back it up with mongodump",
            file=sys.stderr,
        )
