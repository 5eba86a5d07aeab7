"""Building the HNSW index of a serving Qdrant Edge shard while its readers go on (but the swap).

Edge holds the GIL for the whole of `optimize()` (measured: a Python thread ticking every
10 ms got 2 ticks in 14 s, and no search ran), so an optimize inside `warden serve` would stop
every request for its duration: ~15 s at 20k points. So the serving process only copies the
flushed shard into `.optimizing` (file copies, which release the GIL; writes wait meanwhile,
searches do not), a child process loads the copy and optimizes it, and the serving process
then swaps it in: searches wait for that step only (close, rename, load), and the writes made
while the child ran are applied again to the new shard, in order (`Gate.record`). Loading holds
the GIL too: at 100k points the swap took 8 s (load 4.6-5.7 s), against 343 s for the build.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import qdrant_edge as qe

from service.adapters.vector.edge_shard import swap_in

OPTIMIZING = ".optimizing"
CHILD_TIMEOUT_S = 3600


def copy_flushed(shard: qe.EdgeShard, path: Path, lock_file: str) -> Path:
    """Flushes `shard` and copies its folder `path` into path/.optimizing (blocking)."""
    staged = path / OPTIMIZING
    shutil.rmtree(staged, ignore_errors=True)
    shard.flush()

    def skipped(folder: str, names: list[str]) -> list[str]:
        top = Path(folder) == path  # the lock, and staging folders of any kind
        return [n for n in names if top and (n == lock_file or n.startswith("."))]

    shutil.copytree(path, staged, ignore=skipped)
    return staged


def optimize_in_child(staged: Path, running: set[subprocess.Popen[bytes]]) -> None:
    """Loads and optimizes the shard in `staged` in a child process (blocking); the child is
    in `running` meanwhile, so that closing the index can kill it."""
    child = subprocess.Popen(
        [sys.executable, "-m", __name__, str(staged)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    running.add(child)
    try:
        _, err = child.communicate(timeout=CHILD_TIMEOUT_S)
    finally:
        running.discard(child)
        if child.poll() is None:
            child.kill()
    if child.returncode != 0:
        raise RuntimeError(f"index build exited with {child.returncode}: {err[-300:]!r}")


@dataclass(frozen=True)
class IndexInfo:
    points: int
    indexed: int  # as Edge counts them: dense vectors in an HNSW graph, plus sparse vectors
    segments: int
    hnsw_segments: int  # segments whose dense vectors have an HNSW graph on disk


def hnsw_segments(path: Path) -> int:
    return sum(1 for _ in path.glob("segments/*/vector_index/graph.bin"))


def swap(
    old: qe.EdgeShard, path: Path, staged: Path, replay: list[qe.UpdateOperation] | None
) -> qe.EdgeShard:
    """Blocking: closes `old`, puts the optimized copy in its place, applies `replay`."""
    old.close()
    swap_in(path, staged)
    shard = qe.EdgeShard.load(str(path))
    for operation in replay or []:
        shard.update(operation)
    return shard


class Gate:
    """Counts the searches and writes in flight, so that the shard can be replaced between
    them; records the writes made while a copy is being optimized."""

    def __init__(self) -> None:
        self.writes = asyncio.Lock()  # one writer at a time; held while copying and swapping
        self._open = asyncio.Event()
        self._open.set()
        self._users = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.replay: list[qe.UpdateOperation] | None = None  # a list while a copy is optimized

    @asynccontextmanager
    async def using(self) -> AsyncIterator[None]:
        await self._open.wait()
        self._users += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._users -= 1
            if not self._users:
                self._idle.set()

    def record(self, operation: qe.UpdateOperation) -> None:
        if self.replay is not None:
            self.replay.append(operation)

    @asynccontextmanager
    async def closed(self) -> AsyncIterator[None]:
        """New calls wait, the ones in flight finish; then the body runs alone."""
        self._open.clear()
        try:
            await self._idle.wait()
            yield
        finally:
            self._open.set()


if __name__ == "__main__":
    shard = qe.EdgeShard.load(sys.argv[1])
    shard.optimize()
    shard.flush()
    shard.close()
