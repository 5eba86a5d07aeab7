"""degrade: the generated answers failed the answer gate up to the cap, so the answer is the
extractive one from the same passages, with mode `degraded` and the last refusal's reason
(`gate_<reason>`) as the outcome's error. The refused attempts' cost stays counted."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.extractive import EXTRACTIVE_LABEL
from pipelines.nodes.generate import extractive
from pipelines.state import GateOutcome, PipelineState

GATED_LABEL = (
    "The generated answer did not pass Warden's checks, so here are the most relevant "
    "sentences of the knowledge base:"
)


def gate_error(reason: str) -> str:
    return f"gate_{reason}"


async def degrade(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    refused, gate = state["answer"], state.get("gate", GateOutcome())
    fallback = await extractive(state["retrieval"], runtime.context)
    response = fallback.response
    if response.startswith(EXTRACTIVE_LABEL):
        response = GATED_LABEL + response[len(EXTRACTIVE_LABEL) :]
    reason = gate.reasons[-1] if gate.reasons else "refused"
    answer = replace(
        fallback,
        response=response,
        mode="degraded",
        model_latency_ms=refused.model_latency_ms,
        tokens=dict(refused.tokens),
        error=gate_error(reason),
        draft=None,
    )
    return {"answer": answer}
