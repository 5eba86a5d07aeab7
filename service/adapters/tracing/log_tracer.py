"""JsonLogTracer: one JSON line per event through `logging` (the embedded default)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)


class JsonLogTracer:
    """Writes each (already masked) event as one compact JSON object at INFO level."""

    def __init__(self, logger_name: str = "warden.events") -> None:
        self._logger = logging.getLogger(logger_name)

    def emit(self, event: Mapping[str, Any]) -> None:
        try:
            line = json.dumps(dict(event), default=str, sort_keys=True, separators=(",", ":"))
            self._logger.info(line)
        except Exception:  # a tracer never breaks a request
            log.warning("could not log an event", exc_info=True)

    async def flush(self, timeout_s: float) -> None:
        """Log handlers write synchronously: nothing is pending."""
