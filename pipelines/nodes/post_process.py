"""post_process: side effects only. Save the turn to the history, emit one text-free event."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.ports import ChatRecord
from pipelines.state import PipelineState
from pipelines.tracing import build_event, emit_event

_log = logging.getLogger(__name__)
HISTORY_UNAVAILABLE = "history_unavailable"


def turn_records(state: PipelineState, deps: PipelineDeps) -> list[ChatRecord]:
    """The user's raw message and the restored answer: the store lives inside the service."""
    turn, route = state["turn"], state["verdict"].route
    turn_id, now = turn.turn_id or uuid.uuid4().hex, deps.clock()
    return [
        ChatRecord(turn.user_id, "user", turn.query, now, turn_id, route),
        ChatRecord(turn.user_id, "assistant", state["answer"].response, now, turn_id, route),
    ]


async def post_process(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps = runtime.context
    update: dict[str, Any] = {}
    try:
        await deps.store.save_turn(turn_records(state, deps))
    except Exception as exc:  # noqa: BLE001 - a lost save must never lose the answer
        _log.warning("history save failed: %s", type(exc).__name__)
        update["history_error"] = HISTORY_UNAVAILABLE
    emit_event(deps, build_event({**state, **update}, deps))  # type: ignore[typeddict-item]
    return update
