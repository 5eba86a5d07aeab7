"""post_process node: saves the turn, emits one event without text, survives failures."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from typing import Any

from langgraph.runtime import ExecutionInfo, Runtime

from pipelines.metering import metering
from pipelines.nodes.post_process import HISTORY_UNAVAILABLE, post_process
from pipelines.ports import Source
from pipelines.state import Answer, ChatTurn, PipelineState, Retrieval
from pipelines.tracing import outcome_error
from tests.unit._pipeline_kit import NAME, NOW, USER, Kit, runtime, verdict

QUERY = "Can I get my deposit back? I am Asha Rao, asha@example.org"
ANSWER = "Yes, Asha Rao: within a month [1]."
SAFE = "Can I get my deposit back? I am <PERSON_1>, <EMAIL_ADDRESS_1>"
TRACE_ID = uuid.uuid4().hex
AGO_S = 2.0  # the request began this long before post_process runs


def answered() -> PipelineState:
    return {
        "turn": ChatTurn(QUERY, USER, NAME, TRACE_ID, time.perf_counter() - AGO_S),
        "verdict": verdict("question"),
        "retrieval": Retrieval(
            SAFE,
            pii_entities=("PERSON", "EMAIL_ADDRESS"),
            context=("A landlord must return the security deposit within one month.",),
            sources=(Source("deposit.md", 1, "p-deposit", "A landlord must return", 0.53),),
            confidence=53.6,
        ),
        "answer": Answer(ANSWER, "generated", 12.5, {"prompt": 120, "completion": 30}),
    }


def with_run_id(deps: Any, run_id: str) -> Runtime[Any]:
    info = ExecutionInfo(checkpoint_id="c", checkpoint_ns="", task_id="t", run_id=run_id)
    return Runtime(context=deps, execution_info=info)


async def test_saves_the_raw_message_and_the_answer_as_one_turn() -> None:
    kit = Kit()
    with metering() as calls:
        update = await post_process(answered(), runtime(kit.deps()))
    assert update == {} and calls.store == 1
    records = sorted(kit.store.chats.values(), key=lambda r: r.role != "user")
    assert [(r.role, r.content, r.user_id, r.route) for r in records] == [
        ("user", QUERY, USER, "question"),
        ("assistant", ANSWER, USER, "question"),
    ]
    assert records[0].turn_id == records[1].turn_id and records[0].created_at == NOW


async def test_emits_one_event_with_figures_and_no_text() -> None:
    kit = Kit()
    # the trace id is the turn's: LangGraph's run id is not read any more
    await post_process(answered(), with_run_id(kit.deps(), str(uuid.uuid4())))
    [event] = kit.tracer.events
    assert event["trace_id"] == TRACE_ID
    assert {k: event[k] for k in ("route", "mode", "confidence", "pii_found", "sources")} == {
        "route": "question",
        "mode": "generated",
        "confidence": 53.6,
        "pii_found": True,
        "sources": 1,
    }
    assert event["pii_entities"] == ["PERSON", "EMAIL_ADDRESS"]
    assert event["tokens"] == {"prompt": 120, "completion": 30}
    assert event["model_latency_ms"] == 12.5 and event["error"] is None
    # the whole request so far, from the turn's start (not the model's share)
    assert AGO_S * 1000 <= event["latency_ms"] < AGO_S * 1000 + 60_000
    assert set(event["prompt_versions"]) == {"answer_system", "answer_user", "greeting_system"}
    flat = repr(event)
    for text in ("deposit", "Asha", "asha@", "<PERSON_1>", "landlord", USER):
        assert text not in flat


async def test_a_failing_store_is_reported_and_the_event_still_goes_out() -> None:
    kit = Kit()
    kit.store.fail_writes = True
    update = await post_process(answered(), runtime(kit.deps()))
    assert update == {"history_error": HISTORY_UNAVAILABLE}
    assert kit.tracer.events[0]["error"] == HISTORY_UNAVAILABLE


async def test_an_earlier_error_is_kept() -> None:
    kit = Kit()
    kit.store.fail_writes = True
    state = answered()
    state["answer"] = replace(state["answer"], mode="degraded", error="timeout")
    update = await post_process(state, runtime(kit.deps()))
    assert update == {"history_error": HISTORY_UNAVAILABLE}  # noted, but not the outcome
    assert outcome_error({**state, **update}) == "timeout"  # type: ignore[typeddict-item]
    assert kit.tracer.events[0]["error"] == "timeout"


async def test_an_earlier_retrieval_error_is_kept_too() -> None:
    kit = Kit()
    kit.store.fail_writes = True
    state = answered()
    state["retrieval"] = replace(state["retrieval"], error="retrieval_unavailable")
    update = await post_process(state, runtime(kit.deps()))
    assert update == {"history_error": HISTORY_UNAVAILABLE}
    assert kit.tracer.events[0]["error"] == "retrieval_unavailable"


class BrokenTracer:
    def emit(self, event: Any) -> None:
        raise RuntimeError("tracer down")

    async def flush(self, timeout_s: float) -> None: ...


async def test_a_broken_tracer_does_not_break_the_chat() -> None:
    kit = Kit(tracer=BrokenTracer())  # type: ignore[arg-type]
    assert await post_process(answered(), runtime(kit.deps())) == {}
    assert len(kit.store.chats) == 2
