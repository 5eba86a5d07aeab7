"""reject node: a fixed refusal, no port call, one text-free event."""

from __future__ import annotations

from pipelines.metering import metering
from pipelines.nodes.reject import REFUSAL, reject
from pipelines.state import NO_TOKENS, Answer, PipelineState
from tests.unit._pipeline_kit import NAME, USER, Kit, chat_turn, runtime, verdict

INSULT = "you stupid idiot, asha@example.org"


def abusive_state() -> PipelineState:
    return {"turn": chat_turn(INSULT), "verdict": verdict("abusive", "abuse.insult")}


async def test_reject_answers_with_the_fixed_refusal_and_calls_nothing() -> None:
    kit = Kit()
    with metering() as calls:
        update = await reject(abusive_state(), runtime(kit.deps(spy=True)))
    assert update == {"answer": Answer(REFUSAL)}  # nothing retrieved, no other record
    answer = update["answer"]
    assert answer.response == REFUSAL and answer.mode is None and answer.error is None
    assert answer.model_latency_ms == 0.0 and answer.tokens == {"prompt": 0, "completion": 0}
    assert calls.as_dict() == {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    assert kit.detector.calls == 0 and kit.store.chats == {}
    assert [spy for name, spy in kit.spies.items() if name != "tracer" and spy.seen] == []


async def test_reject_is_traced_once_without_the_message() -> None:
    kit = Kit()
    state = abusive_state()
    await reject(state, runtime(kit.deps()))
    [event] = kit.tracer.events
    assert event["route"] == "reject" and event["mode"] is None and event["sources"] == 0
    assert event["trace_id"] == state["turn"].trace_id and event["reasons"] == ["abuse.insult"]
    flat = repr(event)
    for fragment in ("stupid", "idiot", "asha", NAME, USER):
        assert fragment not in flat


async def test_the_refusal_is_pure_and_fresh() -> None:
    kit = Kit()
    first = (await reject(abusive_state(), runtime(kit.deps())))["answer"]
    first.tokens["prompt"] = 99  # the record is frozen, its dict is not: it must not be shared
    second = (await reject(abusive_state(), runtime(kit.deps())))["answer"]
    assert second == Answer(REFUSAL) and second.tokens == {"prompt": 0, "completion": 0}
    assert NO_TOKENS == {"prompt": 0, "completion": 0}
