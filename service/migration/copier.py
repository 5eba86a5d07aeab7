"""Copies each route's stream into its sink in batches, checkpointing after each batch, then
compares live counts on both ends.

Resumable: the checkpoint (kept in the target) records, per stream, where the next batch
starts and whether the stream is done; a run that finds a checkpoint for the same source
fingerprint continues from there, anything else starts over. Idempotent: every write is an
upsert by the item's own id, so a batch written again (a run killed between a write and its
checkpoint) changes nothing. A verified run clears the checkpoint, so the next run copies
everything again and ends with the same counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from service.migration.ports import Plan, Route

DEFAULT_BATCH = 256
Progress = Callable[[str, int, int], None]  # stream, items copied so far, live items in all


@dataclass(frozen=True)
class StreamCount:
    name: str
    source: int
    target: int
    copied: int  # items written by this run and the runs it resumed

    @property
    def matches(self) -> bool:
        return self.source == self.target


@dataclass(frozen=True)
class MigrationReport:
    counts: list[StreamCount]
    resumed: bool

    @property
    def verified(self) -> bool:
        return all(c.matches for c in self.counts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "resumed": self.resumed,
            "counts": {
                c.name: {"source": c.source, "target": c.target, "copied": c.copied}
                for c in self.counts
            },
        }


def _state(saved: dict[str, Any] | None, fingerprint: str) -> dict[str, dict[str, Any]]:
    if saved and saved.get("source") == fingerprint and isinstance(saved.get("streams"), dict):
        return dict(saved["streams"])
    return {}


async def migrate(
    plan: Plan,
    *,
    now: datetime,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress = lambda name, done, total: None,
) -> MigrationReport:
    """Copies, verifies, and clears the checkpoint when every count matches."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    streams = _state(await plan.checkpoint.load(), plan.fingerprint)
    resumed = bool(streams)
    saved = {"source": plan.fingerprint, "streams": streams}
    for route in plan.routes:
        state = streams.setdefault(route.stream.name, {"resume": None, "done": False, "copied": 0})
        await _copy(route, state, now, batch_size, lambda: plan.checkpoint.save(saved), progress)
    counts = [
        StreamCount(
            route.stream.name,
            await route.stream.count(now),
            await route.sink.count(now),
            int(streams[route.stream.name]["copied"]),
        )
        for route in plan.routes
    ]
    report = MigrationReport(counts, resumed)
    if report.verified:
        await plan.checkpoint.clear()
    return report


async def _copy(
    route: Route,
    state: dict[str, Any],
    now: datetime,
    batch_size: int,
    save: Callable[[], Any],
    progress: Progress,
) -> None:
    name = route.stream.name
    total = await route.stream.count(now)
    if state["done"]:
        progress(name, int(state["copied"]), total)
        return
    async for batch in route.stream.batches(state["resume"], batch_size, now):
        await route.sink.write(batch.items)
        state["resume"] = batch.resume
        state["copied"] = int(state["copied"]) + len(batch.items)
        await save()
        progress(name, int(state["copied"]), total)
    state["done"] = True
    await save()
    if not state["copied"]:
        progress(name, 0, total)
