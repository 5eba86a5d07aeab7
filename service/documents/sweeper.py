"""The TTL sweeper: removes expired uploads (vectors, then records) in the background.

Expired documents are already invisible (dual_search filters on `expires_at`, and listings
skip them), so sweeping is clean-up: it runs once at startup and then every interval, logs
what fails (counts and exception types only) and carries on; it never takes the app down.
Records are removed only once the vectors are gone, so a failed sweep is simply retried.
It also removes uploads a crash left pending (`remove_pending`, see lifecycle.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from pipelines.ports import DocumentRegistry, VectorIndex

log = logging.getLogger("warden.sweeper")
STOP_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class SweepResult:
    vectors_removed: bool  # delete_expired succeeded
    records_removed: int
    records_failed: int = 0
    pending_removed: int = 0  # uploads a crash left pending, vectors included


async def sweep_expired(
    index: VectorIndex, registry: DocumentRegistry, now: datetime
) -> SweepResult:
    """Deletes every temporary point expired at `now`, then the expired upload records."""
    try:
        await index.delete_expired(now)
    except Exception as error:  # noqa: BLE001 - retried at the next sweep
        log.warning("sweep: deleting expired vectors failed: %s", type(error).__name__)
        return SweepResult(vectors_removed=False, records_removed=0)
    try:
        expired = await registry.expired_documents(now)
    except Exception as error:  # noqa: BLE001 - retried at the next sweep
        log.warning("sweep: listing expired documents failed: %s", type(error).__name__)
        return SweepResult(vectors_removed=True, records_removed=0)
    removed = failed = 0
    for record in expired:
        try:
            await registry.delete_document(record.id, user_id=record.user_id)
            removed += 1
        except Exception as error:  # noqa: BLE001 - the others still go
            failed += 1
            log.warning("sweep: deleting a document record failed: %s", type(error).__name__)
    return SweepResult(vectors_removed=True, records_removed=removed, records_failed=failed)


async def remove_pending(
    index: VectorIndex, registry: DocumentRegistry, created_before: datetime
) -> int:
    """Removes the uploads pending since `created_before` or earlier (a crash left them): the
    vectors, then the record, so a failure leaves it pending for the next try. How many."""
    try:
        pending = await registry.pending_documents(created_before)
    except Exception as error:  # noqa: BLE001 - retried at the next sweep
        log.warning("listing pending uploads failed: %s", type(error).__name__)
        return 0
    removed = 0
    for record in pending:
        try:
            await index.delete_temporary(record.id, user_id=record.user_id)
            await registry.delete_document(record.id, user_id=record.user_id)
            removed += 1
        except Exception as error:  # noqa: BLE001 - the others still go
            log.warning("removing a pending upload failed: %s", type(error).__name__)
    if removed:
        log.info("removed %d upload(s) a crash left pending", removed)
    return removed


class Sweeper:
    """Runs `sweep` now and then every `interval_s` until stopped. `stop()` lets a sweep in
    progress finish (bounded), so the stores are not closed under it."""

    def __init__(self, sweep: Callable[[], Awaitable[SweepResult]], interval_s: float) -> None:
        self._sweep = sweep
        self.interval_s = interval_s
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sweeps = 0  # completed sweeps, failed ones included

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="document-sweeper")

    async def stop(self, timeout_s: float = STOP_TIMEOUT_S) -> None:
        self._stopping.set()
        task, self._task = self._task, None
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout_s)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while not self._stopping.is_set():
            await self._sweep_once()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.interval_s)

    async def _sweep_once(self) -> None:
        try:
            result = await self._sweep()
            if result.records_removed or result.records_failed:
                log.info(
                    "sweep: %d expired document(s) removed, %d failed",
                    result.records_removed,
                    result.records_failed,
                )
        except Exception as error:  # noqa: BLE001 - the sweeper must outlive any failure
            log.warning("sweep failed: %s", type(error).__name__)
        self.sweeps += 1


def start_sweeper(sweep: Callable[[], Awaitable[SweepResult]], interval_s: float) -> Sweeper:
    """The lifespan's sweeper (stop it with `await sweeper.stop()`)."""
    sweeper = Sweeper(sweep, interval_s)
    sweeper.start()
    return sweeper
