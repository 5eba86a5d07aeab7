"""ChatPipeline.answer(listener=...): the model's answer streamed, same outcome as without."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from pipelines.ports import Completion, Message, ModelUnavailable
from pipelines.runner import ChatOutcome, ChatPipeline
from pipelines.state import Route
from pipelines.streaming import Started, StreamUpdate, Token
from service.adapters.model.chat_stream import ChatStream
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import NAME, USER, Kit, seeded_kit

DEPOSIT_Q = "When must a landlord return the security deposit? Mail asha@example.org"
REPLY = "Within one month [1], <PERSON_1>; we wrote to <EMAIL_ADDRESS_1>."
RESTORED = "Within one month [1], Asha Rao; we wrote to asha@example.org."


class CharByChar(FakeChatModel):
    """Streams one character at a time, so every placeholder is split across pieces."""

    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        reply = self._next_reply()
        for char in reply:
            yield char
        out.completion = Completion(reply, 7, 3, 1.0)


class BreaksMidway(FakeChatModel):
    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        yield "Within one "
        raise ModelUnavailable("stream_broken")


async def streamed(kit: Kit, query: str) -> tuple[list[StreamUpdate], ChatOutcome]:
    updates: list[StreamUpdate] = []
    pipeline = ChatPipeline(kit.deps())
    outcome = await pipeline.answer(
        query, pipeline.classify(query), user_id=USER, user_name=NAME, listener=updates.append
    )
    return updates, outcome


def comparable(outcome: ChatOutcome) -> dict[str, Any]:
    fields = outcome.as_dict()
    del fields["latency_ms"], fields["trace_id"]
    return {**fields, "tokens": outcome.tokens}


async def test_the_answer_streams_restored_and_the_outcome_is_unchanged() -> None:
    kit = await seeded_kit(chat_model=CharByChar(replies=[REPLY]))
    updates, outcome = await streamed(kit, DEPOSIT_Q)

    first, *rest = updates
    assert first == Started("question", outcome.trace_id)
    tokens = [u.text for u in rest if isinstance(u, Token)]
    assert len(tokens) == len(rest) > 10  # streamed piece by piece, nothing but tokens
    assert not any("<" in t for t in tokens)  # no placeholder, whole or half, reaches the user
    assert "".join(tokens) == outcome.response == RESTORED
    assert outcome.mode == "generated" and outcome.tokens == {"prompt": 7, "completion": 3}
    assert outcome.calls.llm == 1
    assert kit.chat_model is not None and [c.method for c in kit.chat_model.calls] == ["stream"]
    assert len(kit.tracer.events) == 1 and len(kit.store.chats) == 2  # one turn, one event

    pipeline = ChatPipeline(kit.deps())
    plain = await pipeline.answer(
        DEPOSIT_Q, pipeline.classify(DEPOSIT_Q), user_id=USER, user_name=NAME
    )
    # without a listener the model is still read as a stream (to stop a runaway reply)
    assert kit.chat_model.calls[-1].method == "stream"
    assert comparable(plain) == comparable(outcome)

    kit.with_config(answer_stop_runaway=False)
    plain = await ChatPipeline(kit.deps()).answer(
        DEPOSIT_Q, pipeline.classify(DEPOSIT_Q), user_id=USER, user_name=NAME
    )
    assert kit.chat_model.calls[-1].method == "complete"  # read whole: one `complete`
    assert comparable(plain) == {**comparable(outcome), "tokens": {"prompt": 10, "completion": 5}}


async def test_off_the_generated_path_only_the_start_is_reported() -> None:
    kit = await seeded_kit()
    cases: list[tuple[str, Route]] = [
        ("you stupid idiot", "reject"),
        ("good morning", "greeting"),
        ("what is the airspeed of a swallow", "question"),  # abstains
    ]
    for query, route in cases:
        updates, outcome = await streamed(kit, query)
        assert updates == [Started(route, outcome.trace_id)], query
        assert outcome.route == route


async def test_a_model_failing_midway_degrades_after_the_tokens_sent() -> None:
    kit = await seeded_kit(chat_model=BreaksMidway())
    updates, outcome = await streamed(kit, DEPOSIT_Q)
    assert [u for u in updates if isinstance(u, Token)] == [Token("Within one ")]
    assert outcome.mode == "degraded" and outcome.error == "stream_broken"
    assert outcome.response != "Within one " and outcome.sources
    assert len(kit.tracer.events) == 1
