"""One history outbox folder per serving process (the outbox is single-process).

`warden serve --workers N` runs N processes on one data folder. Each claims the first outbox
folder no live process holds: `DATA_DIR/outbox` (the only one a single process ever uses), then
`outbox-1`, `outbox-2`, ... A claim is a non-blocking flock on `.claim` inside the folder, held
for the life of the process and dropped by the kernel when it dies, so a restarted worker
takes a free folder over with the turns still queued in it and replays them. The folders of
workers that no longer run (fewer workers than before) are found by `unclaimed_outboxes` and
replayed by a process that starts."""

from __future__ import annotations

import fcntl
import functools
import os
from collections.abc import Callable
from pathlib import Path

from pipelines.ports import StoreUnavailable

MAX_SLOTS = 256
CLAIM_FILE = ".claim"


def slot_folder(data_dir: Path, slot: int) -> Path:
    return data_dir / ("outbox" if slot == 0 else f"outbox-{slot}")


def _try_claim(folder: Path) -> Callable[[], None] | None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(folder / CLAIM_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return functools.partial(os.close, fd)


def claim_outbox(data_dir: Path) -> tuple[Path, Callable[[], None]]:
    """The folder this process now holds, and how to release it."""
    for slot in range(MAX_SLOTS):
        folder = slot_folder(data_dir, slot)
        release = _try_claim(folder)
        if release is not None:
            return folder, release
    raise StoreUnavailable(f"all {MAX_SLOTS} history outbox folders in {data_dir} are in use")


def unclaimed_outboxes(data_dir: Path) -> list[tuple[Path, Callable[[], None]]]:
    """The other outbox folders that exist and no live process holds, each now claimed by
    this process (release them once replayed)."""
    found = []
    for slot in range(1, MAX_SLOTS):
        folder = slot_folder(data_dir, slot)
        if folder.is_dir() and (release := _try_claim(folder)) is not None:
            found.append((folder, release))
    zero = slot_folder(data_dir, 0)
    if zero.is_dir() and (release := _try_claim(zero)) is not None:
        found.insert(0, (zero, release))
    return found
