"""The one structured event per request: counts, codes and types only, never any text."""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.state import ROUTE_OF, PipelineState

_log = logging.getLogger(__name__)


def new_trace_id() -> str:
    return uuid.uuid4().hex


def trace_id_of(runtime: Runtime[PipelineDeps]) -> str:
    """The run's id (the runner passes the trace id as LangGraph's `run_id`), as hex."""
    info = runtime.execution_info
    run_id = info.run_id if info is not None else None
    if run_id:
        try:
            return uuid.UUID(run_id).hex
        except ValueError:
            return run_id
    return new_trace_id()


def route_of(state: PipelineState) -> str:
    return ROUTE_OF[state.get("query_type", "question")]


def build_event(state: PipelineState, *, trace_id: str, deps: PipelineDeps) -> dict[str, Any]:
    """What the tracer gets. Add fields here with care: no query, answer or masked text."""
    tokens = state.get("tokens") or {}
    return {
        "event": "chat_request",
        "trace_id": trace_id,
        "route": route_of(state),
        "mode": state.get("mode"),
        "confidence": round(float(state.get("confidence", 0.0)), 2),
        "latency_ms": _elapsed_ms(state),  # the whole request so far
        "model_latency_ms": round(float(state.get("latency_ms", 0.0)), 2),
        "pii_found": bool(state.get("pii_found", False)),
        "pii_entities": list(state.get("pii_entities", [])),
        "tokens": {
            "prompt": int(tokens.get("prompt", 0)),
            "completion": int(tokens.get("completion", 0)),
        },
        "sources": len(state.get("sources", [])),
        "prompt_versions": deps.prompts.versions(),
        "error": state.get("error"),
        "reasons": list(state.get("reasons", [])),  # classifier rule names, never matched text
    }


def _elapsed_ms(state: PipelineState) -> float:
    started = state.get("started_at")
    if started is None:
        return round(float(state.get("latency_ms", 0.0)), 2)
    return round((time.perf_counter() - started) * 1000, 2)


def emit_event(deps: PipelineDeps, event: dict[str, Any]) -> None:
    """Tracers promise not to raise; a broken one still must not break the chat."""
    try:
        deps.tracer.emit(event)
    except Exception:  # noqa: BLE001 - tracing is best effort
        _log.warning("tracer failed to take the event", exc_info=False)
