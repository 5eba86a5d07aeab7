"""LangfuseTracer: one Langfuse span per event, over OpenTelemetry (langfuse 5.x).

The events are masked before they get here; the client's `mask` is a second line of
defence: any string that does not look like a code, id, number or timestamp is replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from langfuse import Langfuse
from opentelemetry import context as otel_context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider

from service.adapters.tracing.trace_mask import code_or, keep_only_codes

log = logging.getLogger(__name__)

_TRACE_ID = re.compile(r"[0-9a-f]{32}")


async def _in_daemon_thread(work: Callable[[], Any], timeout_s: float) -> None:
    """Runs blocking `work` off the loop and stops waiting after `timeout_s` (a daemon
    thread, so a hung exporter cannot hold up the executor or the interpreter's exit)."""
    loop = asyncio.get_running_loop()
    finished = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if finished.done():
            return
        if error is None:
            finished.set_result(None)
        else:
            finished.set_exception(error)

    def run() -> None:
        error: BaseException | None = None
        try:
            work()
        except BaseException as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=run, name="langfuse-flush", daemon=True).start()
    await asyncio.wait_for(finished, timeout_s)


class LangfuseTracer:
    """Sends each event as a root span whose metadata are the event's fields.

    It owns its OpenTelemetry TracerProvider, so it neither sets nor joins the process-wide one.
    Note: langfuse keeps one client state per public key per process.
    """

    def __init__(
        self,
        *,
        public_key: str,
        secret_key: str,
        base_url: str | None = None,
        timeout_s: float = 5.0,
        environment: str | None = None,
    ) -> None:
        # Shut down by close() (or langfuse's own exit hook), not by a second exit hook of its own.
        self._provider = TracerProvider(
            resource=Resource.create({"service.name": "warden"}), shutdown_on_exit=False
        )
        self._client = Langfuse(
            public_key=public_key,
            secret_key=secret_key,
            base_url=base_url,
            timeout=max(1, math.ceil(timeout_s)),  # each export request
            environment=environment,
            mask=keep_only_codes,
            tracer_provider=self._provider,
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> LangfuseTracer | None:
        """Built only when LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY are both set."""
        public_key = environ.get("LANGFUSE_PUBLIC_KEY")
        secret_key = environ.get("LANGFUSE_SECRET_KEY")
        if not public_key or not secret_key:
            return None
        return cls(
            public_key=public_key,
            secret_key=secret_key,
            base_url=environ.get("LANGFUSE_BASE_URL") or environ.get("LANGFUSE_HOST"),
            timeout_s=float(environ.get("LANGFUSE_TIMEOUT") or 5),
            environment=environ.get("LANGFUSE_TRACING_ENVIRONMENT"),
        )

    def emit(self, event: Mapping[str, Any]) -> None:
        try:
            trace_id = str(event.get("trace_id") or "").replace("-", "").lower()
            if not _TRACE_ID.fullmatch(trace_id):
                trace_id = Langfuse.create_trace_id()
            error = event.get("error")
            # An empty context: langfuse would otherwise copy attributes propagated in the
            # caller's context (user ids, baggage, ...) onto this span.
            token = otel_context.attach(otel_context.Context())
            try:
                span = self._client.start_observation(
                    trace_context={"trace_id": trace_id},
                    name=code_or(event.get("event"), "warden.chat"),
                    metadata=dict(event),  # masked again by keep_only_codes inside langfuse
                    level="WARNING" if error else "DEFAULT",
                    status_message=code_or(error, "error") if error else None,
                )
                span.end()
            finally:
                otel_context.detach(token)
        except Exception as exc:  # a tracer never breaks a request
            log.warning("langfuse emit failed: %s", type(exc).__name__)

    async def flush(self, timeout_s: float) -> None:
        """Exports pending spans; gives up after `timeout_s` and never raises."""
        try:
            await _in_daemon_thread(self._client.flush, timeout_s)
        except Exception as exc:
            log.warning("langfuse flush gave up: %s", type(exc).__name__)

    async def close(self, timeout_s: float) -> None:
        """Flushes and stops the exporter threads (at shutdown), bounded like flush()."""

        def shutdown() -> None:
            self._client.shutdown()
            self._provider.shutdown()

        try:
            await _in_daemon_thread(shutdown, timeout_s)
        except Exception as exc:
            log.warning("langfuse shutdown gave up: %s", type(exc).__name__)
