"""classify: the pure, local route decision (abusive, greeting or question). No port is called."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.safety.classify import classify_message
from pipelines.state import PipelineState


async def classify(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    verdict = classify_message(state["query"], runtime.context.config.safety)
    return {"query_type": verdict.query_type, "reasons": list(verdict.reasons)}
