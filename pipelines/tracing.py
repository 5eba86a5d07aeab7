"""The one structured event per request: counts, codes and types only, never any text."""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from pipelines.deps import PipelineDeps
from pipelines.state import Answer, GateOutcome, PipelineState, Retrieval

_log = logging.getLogger(__name__)
NO_ANSWER = Answer("")
NO_RETRIEVAL = Retrieval("")
NO_GATE = GateOutcome()


def new_trace_id() -> str:
    return uuid.uuid4().hex


def outcome_error(state: PipelineState) -> str | None:
    """The most specific failure code of a run: the answer's, retrieval's, then the history's."""
    answer, retrieval = state.get("answer", NO_ANSWER), state.get("retrieval", NO_RETRIEVAL)
    return answer.error or retrieval.error or state.get("history_error")


def gate_fell_back(state: PipelineState) -> bool:
    """The generated answers all failed the answer gate, and `degrade` answered."""
    gate = state.get("gate", NO_GATE)
    return bool(gate.reasons) and not gate.passed and not gate.retry


def build_event(state: PipelineState, deps: PipelineDeps) -> dict[str, Any]:
    """What the tracer gets. Add fields here with care: no query, answer or masked text."""
    turn, verdict = state["turn"], state["verdict"]
    answer, retrieval = state.get("answer", NO_ANSWER), state.get("retrieval", NO_RETRIEVAL)
    gate = state.get("gate", NO_GATE)
    return {
        "event": "chat_request",
        "trace_id": turn.trace_id,
        "route": verdict.route,
        "mode": answer.mode,
        "confidence": round(float(retrieval.confidence), 2),
        "latency_ms": round((time.perf_counter() - turn.started_at) * 1000, 2),  # so far
        "model_latency_ms": round(float(answer.model_latency_ms), 2),
        "pii_found": retrieval.pii_found,
        "pii_entities": list(retrieval.pii_entities),
        "tokens": {
            "prompt": int(answer.tokens.get("prompt", 0)),
            "completion": int(answer.tokens.get("completion", 0)),
        },
        "sources": len(retrieval.sources),
        "prompt_versions": deps.prompts.versions(),
        "error": outcome_error(state),
        "reasons": list(verdict.reasons),  # classifier rule names, never matched text
        "answer_gate": {  # reason codes and counts only
            "attempts": gate.attempts,
            "reasons": list(gate.reasons),
            "degraded": gate_fell_back(state),
        },
    }


def emit_event(deps: PipelineDeps, event: dict[str, Any]) -> None:
    """Tracers promise not to raise; a broken one still must not break the chat."""
    try:
        deps.tracer.emit(event)
    except Exception:  # noqa: BLE001 - tracing is best effort
        _log.warning("tracer failed to take the event", exc_info=False)
