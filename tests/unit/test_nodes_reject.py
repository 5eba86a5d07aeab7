"""reject node: a fixed refusal, no port call, one text-free event."""

from __future__ import annotations

from pipelines.metering import metering
from pipelines.nodes.reject import REFUSAL, reject, rejection_update
from tests.unit._pipeline_kit import NAME, USER, Kit, runtime

INSULT = "you stupid idiot, asha@example.org"


async def test_reject_answers_with_the_fixed_refusal_and_calls_nothing() -> None:
    kit = Kit()
    state = {"query": INSULT, "user_id": USER, "user_name": NAME, "query_type": "abusive"}
    with metering() as calls:
        update = await reject(state, runtime(kit.deps(spy=True)))  # type: ignore[arg-type]
    assert update == rejection_update()
    assert update["response"] == REFUSAL and update["mode"] is None
    assert calls.as_dict() == {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    assert kit.detector.calls == 0 and kit.store.chats == {}
    assert [spy for name, spy in kit.spies.items() if name != "tracer" and spy.seen] == []


async def test_reject_is_traced_once_without_the_message() -> None:
    kit = Kit()
    state = {"query": INSULT, "user_id": USER, "user_name": NAME, "query_type": "abusive"}
    await reject(state, runtime(kit.deps()))  # type: ignore[arg-type]
    [event] = kit.tracer.events
    assert event["route"] == "reject" and event["mode"] is None and event["sources"] == 0
    flat = repr(event)
    for fragment in ("stupid", "idiot", "asha", NAME, USER):
        assert fragment not in flat


def test_rejection_update_is_pure_and_fresh() -> None:
    first = rejection_update()
    first["sources"].append("x")
    assert rejection_update()["sources"] == []
