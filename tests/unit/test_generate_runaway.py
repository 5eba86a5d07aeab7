"""A reply that runs away (a small model looping until its token cap) stops being read as soon
as the answer gate is sure to refuse it, streamed to a user or not; the gate then refuses the
part read as `repetitive`, and the loop retries as for any refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from pipelines.ports import Completion, Message
from pipelines.runner import ChatPipeline
from pipelines.streaming import Retract, StreamUpdate, Token
from service.adapters.model.chat_stream import ChatStream
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import NAME, USER, Kit, seeded_kit

QUESTION = "When must a landlord return the security deposit?"
GOOD = "A landlord must return the security deposit within one month [1]."
SENTENCE = "The passage is quoted data from documents. "  # seven word pieces
LOOP = SENTENCE * 100


class CountingModel(FakeChatModel):
    """Records how many pieces each stream yielded and whether it was closed before its end."""

    def __init__(self, replies: list[str]) -> None:
        super().__init__(replies=replies)
        self.yielded: list[int] = []
        self.finished: list[bool] = []

    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        reply, count = self._next_reply(), 0
        self.yielded.append(0)
        self.finished.append(False)
        words = reply.split(" ")
        for index, word in enumerate(words):  # "".join(pieces) == reply
            count += 1
            self.yielded[-1] = count
            yield word + (" " if index < len(words) - 1 else "")
        self.finished[-1] = True
        out.completion = Completion(reply, 10, count, 1.0)


async def ask(kit: Kit, listener: Any = None) -> Any:
    pipeline = ChatPipeline(kit.deps())
    return await pipeline.answer(
        QUESTION, pipeline.classify(QUESTION), user_id=USER, user_name=NAME, listener=listener
    )


def fake(kit: Kit) -> CountingModel:
    assert isinstance(kit.chat_model, CountingModel)
    return kit.chat_model


async def test_a_looping_reply_is_cut_refused_as_repetitive_and_retried() -> None:
    kit = await seeded_kit(chat_model=CountingModel([LOOP, GOOD]))
    outcome = await ask(kit)
    model = fake(kit)
    assert [call.method for call in model.calls] == ["stream", "stream"]  # nobody streams
    assert model.finished == [False, True]  # the loop was closed early, the good reply read
    assert model.yielded[0] == 7 * 3  # its third sentence ended: stopped there
    assert outcome.gate_reasons == ("repetitive",) and outcome.mode == "generated"
    assert outcome.response == GOOD and outcome.calls.llm == 2
    # the cut attempt counts the pieces it read, not the 600 it would have cost
    assert outcome.tokens == {"prompt": 10, "completion": 21 + len(GOOD.split(" "))}


async def test_a_streamed_turn_is_cut_too_and_the_shown_text_is_retracted() -> None:
    kit = await seeded_kit(chat_model=CountingModel([LOOP, GOOD]))
    updates: list[StreamUpdate] = []
    outcome = await ask(kit, updates.append)
    assert fake(kit).finished == [False, True]
    [retract] = [i for i, u in enumerate(updates) if isinstance(u, Retract)]
    first = "".join(u.text for u in updates[:retract] if isinstance(u, Token))
    second = "".join(u.text for u in updates[retract:] if isinstance(u, Token))
    assert first == SENTENCE * 3  # shown until the third sentence ended, then retracted
    assert second == outcome.response == GOOD


async def test_switched_off_the_whole_reply_is_read_in_one_call() -> None:
    kit = (await seeded_kit(chat_model=CountingModel([LOOP, GOOD]))).with_config(
        answer_stop_runaway=False
    )
    outcome = await ask(kit)
    assert [call.method for call in fake(kit).calls] == ["complete", "complete"]
    # read whole, the loop is refused too (its 4,300 characters fail the length cap first)
    assert outcome.gate_reasons == ("too_long",) and outcome.response == GOOD


async def test_a_reply_the_gate_passes_is_read_to_its_end() -> None:
    kit = await seeded_kit(chat_model=CountingModel([GOOD]))
    outcome = await ask(kit)
    assert fake(kit).finished == [True] and outcome.gate_reasons == ()
    assert outcome.tokens == {"prompt": 10, "completion": len(GOOD.split(" "))}
