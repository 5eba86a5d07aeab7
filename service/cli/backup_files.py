"""The file work behind `warden backup` and `warden restore`: copy a data folder with a
manifest of every file's size and SHA-256, check a copy against its manifest, and tell
whether a store in a folder is open in some process.

Copies keep sparse files sparse (Qdrant Edge preallocates 32 MB write-ahead-log segments that
are mostly holes) and hash in the same pass. The manifest is written last, through a rename:
a backup without one is incomplete.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

MANIFEST = "warden-backup.json"
FILES_DIR = "data"
FORMAT = 1
# Lock files are per process, never copied: data_dir/warden.lock (service/process_lock.py),
# the embedded store's mongoeco/LOCK and the vector index's qdrant/.warden.lock.
LOCK_NAMES = frozenset({"warden.lock", "LOCK", ".warden.lock"})
_BLOCK = 1 << 16  # holes are kept at this granularity
_ZEROS = bytes(_BLOCK)


class BackupError(Exception):
    """A backup that cannot be taken or restored; the message says why and what to do."""


@dataclass(frozen=True)
class FileEntry:
    path: str  # relative to the data folder, "/"-separated
    size: int
    sha256: str


def data_files(root: Path) -> list[str]:
    """The files of `root` to copy (relative, sorted), lock files left out."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            raise BackupError(f"{path} is a symbolic link; a backup copies only plain files")
        if path.is_file() and path.name not in LOCK_NAMES:
            found.append(path.relative_to(root).as_posix())
    return found


def copy_file(source_root: Path, target_root: Path, relative: str) -> FileEntry:
    """Copies one file (holes stay holes, mode kept, synced); its entry."""
    source, target = source_root / relative, target_root / relative
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    with source.open("rb") as read, target.open("wb") as write:
        while block := read.read(_BLOCK):
            digest.update(block)
            size += len(block)
            if block == _ZEROS[: len(block)]:
                write.seek(len(block), os.SEEK_CUR)
            else:
                write.write(block)
        write.truncate(size)
        write.flush()
        os.fsync(write.fileno())
    shutil.copymode(source, target)
    return FileEntry(relative, size, digest.hexdigest())


def file_entry(root: Path, relative: str) -> FileEntry:
    digest, size = hashlib.sha256(), 0
    with (root / relative).open("rb") as read:
        while block := read.read(_BLOCK):
            digest.update(block)
            size += len(block)
    return FileEntry(relative, size, digest.hexdigest())


def write_manifest(folder: Path, entries: list[FileEntry], created_at: str) -> None:
    manifest = {"format": FORMAT, "created_at": created_at, "files": [asdict(e) for e in entries]}
    partial = folder / f".{MANIFEST}.partial"
    partial.write_text(json.dumps(manifest, indent=1))
    os.replace(partial, folder / MANIFEST)


def read_manifest(folder: Path) -> list[FileEntry]:
    """The entries of a complete backup in `folder`; BackupError for anything else."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        if manifest["format"] != FORMAT:
            raise BackupError(f"{folder} is a backup of format {manifest['format']}, not {FORMAT}")
        files = manifest["files"]
        return [FileEntry(str(f["path"]), int(f["size"]), str(f["sha256"])) for f in files]
    except FileNotFoundError:
        raise BackupError(f"{folder} holds no complete Warden backup (no {MANIFEST})") from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BackupError(f"{folder}/{MANIFEST} is unreadable: {type(error).__name__}") from None


def check_copy(root: Path, entries: list[FileEntry]) -> None:
    """Raises BackupError unless every file of `entries` is in `root`, whole and unchanged."""
    for entry in entries:
        path = Path(entry.path)
        if path.is_absolute() or ".." in path.parts:
            raise BackupError(f"the manifest names a file outside the backup: {entry.path}")
        try:
            found = file_entry(root, entry.path)
        except OSError:
            raise BackupError(f"the backup is damaged: {entry.path} is missing") from None
        if found != entry:
            raise BackupError(f"the backup is damaged: {entry.path} differs from its manifest")


def open_stores(root: Path) -> list[str]:
    """The stores' lock files under `root` that a process holds now (a store open elsewhere);
    the data folder's own lock, which the caller holds, is not looked at."""
    held = []
    for path in sorted(root.rglob("*")):
        if path.name in LOCK_NAMES and path.is_file() and path.parent != root:
            with path.open("rb") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    held.append(path.relative_to(root).as_posix())
    return held


def entries_besides(folder: Path, keep: frozenset[str]) -> list[Path]:
    """What `folder` holds other than the names in `keep` (none when it does not exist)."""
    if not folder.exists():
        return []
    return sorted(p for p in folder.iterdir() if p.name not in keep)


def remove(paths: list[Path]) -> None:
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
