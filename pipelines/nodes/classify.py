"""classify: the pure, local route decision (abusive, greeting or question). No port is called.

The chat service classifies each message once, with the same `deps.classify`, before it enters the
graph (an abusive message is refused without the graph engine), and the verdict travels in
the state: the node then only routes. A state without a verdict is classified here.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.state import PipelineState


async def classify(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    if "verdict" in state:
        return {}
    return {"verdict": runtime.context.classify(state["turn"].query)}
