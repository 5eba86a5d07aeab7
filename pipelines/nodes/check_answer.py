"""check_answer: the answer gate on a generated answer, and where the graph goes next.

Only a model-generated answer (mode `generated`) is checked; an extractive, abstained or
degraded one passes through untouched. A refused answer goes back to `generate` with the
gate's feedback while attempts remain (1 + `answer_retries`), then to `degrade`.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from langgraph.runtime import Runtime

from pipelines.answer_gate import GateInput
from pipelines.answer_gate import check_answer as run_gate
from pipelines.deps import PipelineDeps
from pipelines.state import GateOutcome, PipelineState

NextAfterCheck = Literal["post_process", "generate", "degrade"]


async def check_answer(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    answer, config = state["answer"], runtime.context.config
    if answer.mode != "generated" or answer.draft is None:
        return {}
    draft, earlier = answer.draft, state.get("gate", GateOutcome())
    started = time.perf_counter()
    verdict = run_gate(
        GateInput(
            answer=draft.reply,
            passages=draft.passages,
            question=state["retrieval"].safe_query,
            sent=(draft.system_prompt, *draft.sent),
            system_prompt=draft.system_prompt,
            max_chars=config.answer_max_chars,
        )
    )
    spent = (time.perf_counter() - started) * 1000
    reasons = earlier.reasons if verdict.passed else (*earlier.reasons, str(verdict.reason))
    return {
        "gate": GateOutcome(
            attempts=earlier.attempts + 1,
            limit=1 + max(config.answer_retries, 0),
            reasons=reasons,
            passed=verdict.passed,
            feedback=verdict.feedback,
            check_ms=earlier.check_ms + spent,
        )
    }


def route_after_check(state: PipelineState) -> NextAfterCheck:
    """pass (or nothing to check) -> post_process; refused -> generate while attempts remain,
    then degrade."""
    gate = state.get("gate")
    if state["answer"].mode != "generated" or gate is None or gate.passed:
        return "post_process"
    return "generate" if gate.retry else "degrade"
