"""metered(): each port call is counted once, whatever kind of method it is."""

from __future__ import annotations

from collections.abc import AsyncIterator

from pipelines.metering import metered, metering
from pipelines.ports import Message
from tests.fakes.chat_model import FakeChatModel


class Port:
    async def fetch(self) -> int:
        return 1

    async def items(self) -> AsyncIterator[int]:
        yield 1
        yield 2

    def helper(self) -> str:
        return "not a call to the dependency"

    async def ping(self) -> None:
        return None


async def test_coroutines_and_async_generators_are_counted_housekeeping_is_not() -> None:
    port = metered(Port(), "store")
    with metering() as calls:
        assert await port.fetch() == 1
        assert [item async for item in port.items()] == [1, 2]
        assert port.helper() == "not a call to the dependency"
        await port.ping()
    assert calls.as_dict() == {"llm": 0, "embed": 0, "vector": 0, "store": 2}


async def test_a_plain_def_stream_is_counted_and_its_stream_passed_on() -> None:
    model = FakeChatModel(replies=["one two"])
    port = metered(model, "llm")
    messages = [Message("user", "hi")]
    with metering() as calls:
        stream = port.stream(messages, temperature=0.3, max_tokens=10)
        assert calls.llm == 1  # counted when asked for, like `complete`
        assert [piece async for piece in stream] == ["one ", "two"]
        await port.complete(messages, temperature=0.3, max_tokens=10)
    assert calls.as_dict() == {"llm": 2, "embed": 0, "vector": 0, "store": 0}
    completion = getattr(stream, "completion", None)  # the ChatStream itself, untouched
    assert completion is not None and completion.text == "one two"


async def test_nothing_is_counted_outside_a_metering_block() -> None:
    port = metered(FakeChatModel(), "llm")
    [piece async for piece in port.stream([], temperature=0.3, max_tokens=10)]
    with metering() as calls:
        pass
    assert calls.llm == 0
