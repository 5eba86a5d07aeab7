"""POST /v1/chat/stream when the answer gate refuses the streamed text: a `reset`, then the
answer that passed (or the degraded one), and `done` equal to what POST /v1/chat returns."""

from __future__ import annotations

from tests.api.conftest import KitFactory
from tests.api.test_stream import QUESTION, seeded, stream_events, tokens_after_last_reset
from tests.fakes.chat_model import FakeChatModel

BAD = "The deposit comes back within one month [4]."
GOOD = "Within one month [1], <PERSON_1>; we wrote to <EMAIL_ADDRESS_1>."


async def test_a_retried_answer_resets_and_ends_with_the_one_that_passed(
    make_kit: KitFactory,
) -> None:
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[BAD, GOOD]))
    headers = await kit.headers_for("asha@example.org", name="Asha Rao")
    events = await stream_events(kit, headers, QUESTION)
    names = [name for name, _ in events]
    assert names[0] == "meta" and names[-1] == "done" and names.count("reset") == 1
    done = events[-1][1]
    shown = "".join(
        data["text"] for name, data in events[: names.index("reset")] if name == "token"
    )
    assert shown == BAD
    assert done["mode"] == "generated" and done["calls"]["llm"] == 2
    assert tokens_after_last_reset(events) == done["response"]
    assert done["response"] == "Within one month [1], Asha Rao; we wrote to asha@example.org."


async def test_a_degraded_answer_resets_and_ends_with_the_extractive_one(
    make_kit: KitFactory,
) -> None:
    kit = await seeded(make_kit, chat_model=FakeChatModel(replies=[BAD]))
    headers = await kit.headers_for("asha@example.org", name="Asha Rao")
    events = await stream_events(kit, headers, QUESTION)
    names = [name for name, _ in events]
    assert names[-1] == "done" and "reset" in names
    done = events[-1][1]
    assert done["mode"] == "degraded" and done["calls"]["llm"] == 2
    assert tokens_after_last_reset(events) == done["response"] and "[4]" not in done["response"]
    metrics = kit.container.chat.metrics.render()[0].decode()  # what GET /metrics serves
    assert 'warden_answer_gate_failures_total{reason="unknown_citation"} 2.0' in metrics
    assert "warden_answer_fallbacks_total 1.0" in metrics
