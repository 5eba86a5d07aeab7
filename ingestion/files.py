"""Which files `warden ingest PATH...` reads, and the doc id each one gets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingestion.loaders import is_supported


@dataclass(frozen=True)
class SourceFile:
    path: Path
    doc_id: str  # path relative to the folder given (posix); a file given directly: its name
    root: str  # the resolved folder `doc_id` is relative to


@dataclass(frozen=True)
class Discovery:
    files: list[SourceFile]
    folders: list[Path]  # resolved folders given: the scope of --delete-missing
    errors: list[tuple[str, str]]  # (path as given, reason)


def _hidden_or_temporary(relative: Path) -> bool:
    """Dot files and folders, and Office lock files (~$name.docx)."""
    return any(part.startswith((".", "~$")) for part in relative.parts)


def discover(paths: Sequence[Path]) -> Discovery:
    """Supported files under each path, sorted; folders are walked recursively."""
    files: list[SourceFile] = []
    folders: list[Path] = []
    errors: list[tuple[str, str]] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            root = path.resolve()
            folders.append(root)
            for found in sorted(root.rglob("*")):
                relative = found.relative_to(root)
                wanted = is_supported(found.name) and not _hidden_or_temporary(relative)
                if wanted and found.is_file():
                    files.append(SourceFile(found, relative.as_posix(), str(root)))
        elif path.is_file():
            if is_supported(path.name):
                resolved = path.resolve()
                files.append(SourceFile(resolved, resolved.name, str(resolved.parent)))
            else:
                errors.append((str(given), f"unsupported file type {path.suffix or '(none)'}"))
        else:
            errors.append((str(given), "no such file or folder"))
    return Discovery(files, folders, errors)


def is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
