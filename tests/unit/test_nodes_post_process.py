"""post_process node: saves the turn, emits one event without text, survives failures."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.runtime import ExecutionInfo, Runtime

from pipelines.metering import metering
from pipelines.nodes.post_process import HISTORY_UNAVAILABLE, post_process
from pipelines.ports import Source
from pipelines.state import PipelineState
from tests.unit._pipeline_kit import NAME, NOW, USER, Kit, runtime

QUERY = "Can I get my deposit back? I am Asha Rao, asha@example.org"
ANSWER = "Yes, Asha Rao: within a month [1]."
SAFE = "Can I get my deposit back? I am <PERSON_1>, <EMAIL_ADDRESS_1>"


def answered() -> PipelineState:
    return {
        "query": QUERY,
        "user_id": USER,
        "user_name": NAME,
        "query_type": "question",
        "safe_query": SAFE,
        "pii_found": True,
        "pii_entities": ["PERSON", "EMAIL_ADDRESS"],
        "context": ["A landlord must return the security deposit within one month."],
        "sources": [Source("deposit.md", 1, "p-deposit", "A landlord must return", 0.53)],
        "confidence": 53.6,
        "response": ANSWER,
        "mode": "generated",
        "latency_ms": 12.5,
        "tokens": {"prompt": 120, "completion": 30},
    }


def with_trace_id(deps: Any, trace_id: str) -> Runtime[Any]:
    info = ExecutionInfo(
        checkpoint_id="c", checkpoint_ns="", task_id="t", run_id=str(uuid.UUID(trace_id))
    )
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
    trace_id = uuid.uuid4().hex
    await post_process(answered(), with_trace_id(kit.deps(), trace_id))
    [event] = kit.tracer.events
    assert event["trace_id"] == trace_id
    assert {k: event[k] for k in ("route", "mode", "confidence", "pii_found", "sources")} == {
        "route": "question",
        "mode": "generated",
        "confidence": 53.6,
        "pii_found": True,
        "sources": 1,
    }
    assert event["pii_entities"] == ["PERSON", "EMAIL_ADDRESS"]
    assert event["tokens"] == {"prompt": 120, "completion": 30} and event["latency_ms"] == 12.5
    assert set(event["prompt_versions"]) == {"answer_system", "answer_user", "greeting_system"}
    flat = repr(event)
    for text in ("deposit", "Asha", "asha@", "<PERSON_1>", "landlord", USER):
        assert text not in flat


async def test_a_failing_store_is_reported_and_the_event_still_goes_out() -> None:
    kit = Kit()
    kit.store.fail_writes = True
    update = await post_process(answered(), runtime(kit.deps()))
    assert update == {"error": HISTORY_UNAVAILABLE}
    assert kit.tracer.events[0]["error"] == HISTORY_UNAVAILABLE


async def test_an_earlier_error_is_kept() -> None:
    kit = Kit()
    kit.store.fail_writes = True
    state: PipelineState = {**answered(), "error": "timeout", "mode": "degraded"}
    assert await post_process(state, runtime(kit.deps())) == {}


class BrokenTracer:
    def emit(self, event: Any) -> None:
        raise RuntimeError("tracer down")

    async def flush(self, timeout_s: float) -> None: ...


async def test_a_broken_tracer_does_not_break_the_chat() -> None:
    kit = Kit(tracer=BrokenTracer())  # type: ignore[arg-type]
    assert await post_process(answered(), runtime(kit.deps())) == {}
    assert len(kit.store.chats) == 2
