"""What the migration copies between: named streams of items read from a snapshot of the
embedded deployment, written to the servers, with a checkpoint kept in the target.

Items are opaque here (a stored point, a stored document): the adapters on both ends agree
on them; this layer only moves batches, remembers where it was and compares counts."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class Batch:
    items: Sequence[Any]
    resume: Any  # where a later run continues after this batch (stream-specific, BSON-safe)


class Stream(Protocol):
    """One kind of data in the source (the vectors, one store collection)."""

    name: str

    async def count(self, now: datetime) -> int:
        """How many live items the stream holds (expired uploads and history are not live)."""
        ...

    def batches(self, resume: Any, size: int, now: datetime) -> AsyncIterator[Batch]:
        """Live items in a stable order, from `resume` (None: the start)."""
        ...


class Sink(Protocol):
    """Where one stream goes. Writes are upserts by the items' own ids (idempotent)."""

    async def write(self, items: Sequence[Any]) -> None: ...

    async def count(self, now: datetime) -> int:
        """Live items in the target, counted the way the stream counts them."""
        ...


class CheckpointStore(Protocol):
    """The migration's progress, kept in the target (the source is never written)."""

    async def load(self) -> dict[str, Any] | None: ...

    async def save(self, progress: dict[str, Any]) -> None: ...

    async def clear(self) -> None: ...


@dataclass(frozen=True)
class Route:
    stream: Stream
    sink: Sink


@dataclass(frozen=True)
class Plan:
    """What bootstrap opened for one run: the routes in copy order, the checkpoint, and the
    fingerprint of the source (a changed source starts the copy over)."""

    routes: Sequence[Route]
    checkpoint: CheckpointStore
    fingerprint: str
    notes: Sequence[str] = ()  # what the command cannot carry over (files of the data folder)
