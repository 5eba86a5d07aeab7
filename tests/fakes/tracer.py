"""RecordingTracer: keeps every emitted event in memory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RecordingTracer:
    """A Tracer that appends a copy of each event to `.events`; flush() is a no-op."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.flushes = 0

    def emit(self, event: Mapping[str, Any]) -> None:
        self.events.append(dict(event))

    async def flush(self, timeout_s: float) -> None:
        self.flushes += 1
