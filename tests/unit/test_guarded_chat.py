"""GuardedChatModel over fakes: per-chat counting, an open breaker spares the model."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest

from pipelines.ports import ChatModel, Completion, Message, ModelUnavailable
from service.adapters.model.chat_stream import ChatStream
from service.adapters.model.guarded_chat import GuardedChatModel
from tests.fakes.chat_model import FakeChatModel

HELLO = [Message("user", "hello")]


async def chat(model: ChatModel) -> Completion:
    return await model.complete(HELLO, temperature=0.3, max_tokens=20)


async def reason_of(model: ChatModel) -> str:
    with pytest.raises(ModelUnavailable) as error:
        await chat(model)
    return error.value.reason


class RetryingModel:
    """Stands in for the OpenAI client's own retries: one chat, `attempts` calls to `inner`."""

    def __init__(self, inner: FakeChatModel, attempts: int) -> None:
        self.inner, self.attempts = inner, attempts

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        for _ in range(self.attempts - 1):
            try:
                return await self.inner.complete(
                    messages, temperature=temperature, max_tokens=max_tokens
                )
            except ModelUnavailable:
                pass
        return await self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens)

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> AsyncIterator[str]:
        return self.inner.stream(messages, temperature=temperature, max_tokens=max_tokens)

    async def ping(self) -> None:
        await self.inner.ping()


async def test_healthy_chats_pass_through_unchanged() -> None:
    fake = FakeChatModel(replies=["an answer"])
    guarded = GuardedChatModel(fake, fail_max=1)
    completion = await chat(guarded)
    assert completion.text == "an answer" and completion.completion_tokens == 5
    assert fake.calls[0].messages == HELLO
    assert fake.calls[0].kwargs == {"temperature": 0.3, "max_tokens": 20}
    assert guarded.state == "closed"


async def test_opens_after_fail_max_chats_then_rejects_without_calling_the_model() -> None:
    fake = FakeChatModel(fail=True, fail_reason="timeout")
    guarded = GuardedChatModel(fake, fail_max=3, reset_timeout_s=60)
    assert [await reason_of(guarded) for _ in range(3)] == ["timeout"] * 3
    assert guarded.state == "open"
    assert [await reason_of(guarded) for _ in range(4)] == ["breaker_open"] * 4
    assert len(fake.calls) == 3


async def test_retries_inside_one_chat_are_one_failure() -> None:
    fake = FakeChatModel(fail=True)
    guarded = GuardedChatModel(RetryingModel(fake, attempts=3), fail_max=2, reset_timeout_s=60)
    await reason_of(guarded)
    assert len(fake.calls) == 3
    assert guarded.breaker.fail_counter == 1 and guarded.state == "closed"
    await reason_of(guarded)
    assert len(fake.calls) == 6 and guarded.state == "open"


async def test_a_success_resets_the_count_of_consecutive_failures() -> None:
    fake = FakeChatModel(fail=True)
    guarded = GuardedChatModel(fake, fail_max=2)
    await reason_of(guarded)
    fake.fail = False
    await chat(guarded)
    fake.fail = True
    await reason_of(guarded)
    assert guarded.state == "closed" and guarded.breaker.fail_counter == 1


async def test_half_open_trial_closes_on_success_and_reopens_on_failure() -> None:
    fake = FakeChatModel(fail=True, fail_reason="http_5xx")
    guarded = GuardedChatModel(fake, fail_max=1, reset_timeout_s=60)
    await reason_of(guarded)
    assert guarded.state == "open"
    guarded.breaker.half_open()  # as if reset_timeout had elapsed
    assert await reason_of(guarded) == "http_5xx"  # the trial reached the model and failed
    assert guarded.state == "open" and len(fake.calls) == 2
    guarded.breaker.half_open()
    fake.fail = False
    await chat(guarded)
    assert guarded.state == "closed"


async def test_stream_failing_before_its_first_delta_counts() -> None:
    fake = FakeChatModel(fail=True)
    guarded = GuardedChatModel(fake, fail_max=1, reset_timeout_s=60)
    with pytest.raises(ModelUnavailable):
        async for _ in guarded.stream(HELLO, temperature=0.3, max_tokens=20):
            pass
    assert guarded.state == "open"
    with pytest.raises(ModelUnavailable) as error:
        async for _ in guarded.stream(HELLO, temperature=0.3, max_tokens=20):
            pass
    assert error.value.reason == "breaker_open"
    assert len(fake.calls) == 1


class FailsMidStream(FakeChatModel):
    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> ChatStream:
        async def pieces(out: ChatStream) -> AsyncIterator[str]:
            yield "partial "
            raise ModelUnavailable("connection")

        return ChatStream(pieces)


async def test_stream_failing_after_its_first_delta_is_raised_but_not_counted() -> None:
    guarded = GuardedChatModel(FailsMidStream(), fail_max=1)
    received: list[str] = []
    with pytest.raises(ModelUnavailable) as error:
        async for piece in guarded.stream(HELLO, temperature=0.3, max_tokens=20):
            received.append(piece)
    assert received == ["partial "] and error.value.reason == "connection"
    assert guarded.state == "closed"


async def test_healthy_stream_passes_its_pieces_and_completion_through() -> None:
    fake = FakeChatModel(replies=["one two three"])
    guarded = GuardedChatModel(fake, fail_max=1)
    stream = guarded.stream(HELLO, temperature=0.3, max_tokens=20)
    assert [piece async for piece in stream] == ["one ", "two ", "three"]
    assert stream.completion is not None and stream.completion.text == "one two three"
    assert fake.calls[0].method == "stream"


class Hangs(FakeChatModel):
    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_a_cancelled_chat_counts_as_a_failure_and_stays_a_cancellation() -> None:
    guarded = GuardedChatModel(Hangs(), fail_max=1, reset_timeout_s=60)
    with pytest.raises(TimeoutError):  # asyncio turned our cancellation into its timeout
        async with asyncio.timeout(0.01):
            await chat(guarded)
    assert guarded.state == "open"
    assert await reason_of(guarded) == "breaker_open"


async def test_ping_goes_to_the_model_and_leaves_the_breaker_alone() -> None:
    fake = FakeChatModel(fail=True)
    guarded = GuardedChatModel(fake, fail_max=1)
    with pytest.raises(ModelUnavailable):
        await guarded.ping()
    assert fake.pings == 1 and guarded.state == "closed"


def test_it_satisfies_the_port() -> None:
    assert isinstance(GuardedChatModel(FakeChatModel()), ChatModel)
