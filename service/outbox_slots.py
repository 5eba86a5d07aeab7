"""One history outbox folder per serving process (the outbox is single-process).

`warden serve --workers N` runs N processes on one data folder. Each claims the first outbox
folder no live process holds: `DATA_DIR/outbox` (the only one a single process ever uses), then
`outbox-1`, `outbox-2`, ... A claim is a non-blocking flock on `.claim` inside the folder, held
for the life of the process and dropped by the kernel when it dies, so a restarted worker
takes a free folder over with the turns still queued in it and replays them."""

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


def claim_outbox(data_dir: Path) -> tuple[Path, Callable[[], None]]:
    """The folder this process now holds, and how to release it."""
    for slot in range(MAX_SLOTS):
        folder = slot_folder(data_dir, slot)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(folder / CLAIM_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return folder, functools.partial(os.close, fd)
    raise StoreUnavailable(f"all {MAX_SLOTS} history outbox folders in {data_dir} are in use")
