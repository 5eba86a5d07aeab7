"""reject: a fixed, polite refusal. No model, embedder, index or store; traced without text."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.state import Answer, PipelineState
from pipelines.tracing import build_event, emit_event

REFUSAL = (
    "I can't help with that message. "
    "Please keep the conversation respectful and ask a question about the knowledge base."
)


async def reject(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """Counted and traced like any request, without the message text (it is not stored)."""
    answer = Answer(REFUSAL)
    emit_event(runtime.context, build_event({**state, "answer": answer}, runtime.context))
    return {"answer": answer}
