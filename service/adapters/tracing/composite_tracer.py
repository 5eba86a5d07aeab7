"""CompositeTracer: fans every event out to several tracers; one failing tracer spoils nothing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from pipelines.ports import Tracer

log = logging.getLogger(__name__)


async def _flush_quietly(tracer: Tracer, timeout_s: float) -> None:
    try:
        await tracer.flush(timeout_s)
    except Exception as exc:
        log.warning("tracer %s failed to flush: %s", type(tracer).__name__, type(exc).__name__)


class CompositeTracer:
    def __init__(self, *tracers: Tracer) -> None:
        self.tracers = tracers

    def emit(self, event: Mapping[str, Any]) -> None:
        for tracer in self.tracers:
            try:
                tracer.emit(event)
            except Exception as exc:
                log.warning(
                    "tracer %s failed to emit: %s", type(tracer).__name__, type(exc).__name__
                )

    async def flush(self, timeout_s: float) -> None:
        """Flushes all tracers at once and returns within `timeout_s`, whatever they do."""
        tasks = [asyncio.create_task(_flush_quietly(t, timeout_s)) for t in self.tracers]
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=timeout_s)
        for task in late:
            task.cancel()
            log.warning("a tracer did not flush within %.1f s", timeout_s)
