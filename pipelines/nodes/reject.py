"""reject: a fixed, polite refusal. No model, embedder, index or store; traced without text."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.state import PipelineState
from pipelines.tracing import build_event, emit_event, trace_id_of

REFUSAL = (
    "I can't help with that message. "
    "Please keep the conversation respectful and ask a question about the knowledge base."
)


def rejection_update() -> dict[str, Any]:
    """The whole answer to an abusive message; pure, shared by the node and the edge shortcut."""
    return {
        "response": REFUSAL,
        "mode": None,
        "confidence": 0.0,
        "sources": [],
        "pii_found": False,
        "pii_entities": [],
        "latency_ms": 0.0,
        "tokens": {"prompt": 0, "completion": 0},
        "error": None,
    }


def trace_rejection(state: PipelineState, *, trace_id: str, deps: PipelineDeps) -> None:
    """Counted and traced like any request, without the message text (it is not stored)."""
    merged: PipelineState = {**state, **rejection_update()}  # type: ignore[typeddict-item]
    emit_event(deps, build_event(merged, trace_id=trace_id, deps=deps))


async def reject(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    trace_rejection(state, trace_id=trace_id_of(runtime), deps=runtime.context)
    return rejection_update()
