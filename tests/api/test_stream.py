"""POST /v1/chat/stream: server-sent events carrying the same chat as POST /v1/chat."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from pipelines.ports import Completion, Message, ModelUnavailable
from service.adapters.model.chat_stream import ChatStream
from service.auth.tokens import Principal
from service.chat_events import Started
from tests.api.conftest import Kit, KitFactory
from tests.api.test_chat import ABUSIVE, SPEC_FIELDS
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import seed_core

QUESTION = "When must a landlord return the security deposit? Mail asha@example.org"
REPLY = "Within one month [1], <PERSON_1>; we wrote to <EMAIL_ADDRESS_1>."
RESTORED = "Within one month [1], Asha Rao; we wrote to asha@example.org."
Event = tuple[str, Any]


class ThreeCharPieces(FakeChatModel):
    """Streams three characters at a time: placeholders arrive split across pieces."""

    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        reply = self._next_reply()
        for start in range(0, len(reply), 3):
            yield reply[start : start + 3]
        out.completion = Completion(reply, self.prompt_tokens, self.completion_tokens, 1.0)


class BreaksMidway(FakeChatModel):
    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self._record("stream", messages, kwargs)
        yield "Within one "
        raise ModelUnavailable("stream_broken")


class WaitsToAnswer(ThreeCharPieces):
    """Signals `asked` when its stream starts, then waits for `release` before answering."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.asked, self.release = asyncio.Event(), asyncio.Event()

    async def _pieces(
        self, messages: Sequence[Message], kwargs: dict[str, Any], out: ChatStream
    ) -> AsyncIterator[str]:
        self.asked.set()
        await self.release.wait()
        async for piece in super()._pieces(messages, kwargs, out):
            yield piece


def parse_events(body: str) -> list[Event]:
    """The (event, data) pairs of a text/event-stream body; comments (keep-alives) skipped."""
    events: list[Event] = []
    for block in body.split("\n\n"):
        name, data = "message", []
        for line in block.splitlines():
            field, _, value = line.partition(":")
            if field == "event":
                name = value.strip()
            elif field == "data":
                data.append(value.removeprefix(" "))
        if data:
            events.append((name, json.loads("\n".join(data))))
    return events


async def stream(kit: Kit, headers: dict[str, str], message: str) -> httpx.Response:
    return await kit.client.post("/v1/chat/stream", json={"message": message}, headers=headers)


async def stream_events(kit: Kit, headers: dict[str, str], message: str) -> list[Event]:
    response = await stream(kit, headers, message)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse_events(response.text)


def tokens_after_last_reset(events: list[Event]) -> str:
    names = [name for name, _ in events]
    start = len(names) - names[::-1].index("reset") if "reset" in names else 0
    return "".join(data["text"] for name, data in events[start:] if name == "token")


async def seeded(make_kit: KitFactory, **kwargs: Any) -> Kit:
    kit = await make_kit(**kwargs)
    await seed_core(kit.index, kit.embedder)
    return kit


async def test_generated_answer_streams_and_ends_with_the_post_chat_fields(
    make_kit: KitFactory,
) -> None:
    kit = await seeded(make_kit, chat_model=ThreeCharPieces(replies=[REPLY]))
    headers = await kit.headers_for("asha@example.org", name="Asha Rao")
    events = await stream_events(kit, headers, QUESTION)

    names = [name for name, _ in events]
    assert names[0] == "meta" and names[-1] == "done"
    assert set(names[1:-1]) == {"token"} and len(names) > 10  # piece by piece
    (_, meta), (_, done) = events[0], events[-1]
    assert meta == {"trace_id": done["trace_id"], "route": "question"}
    tokens = [data["text"] for name, data in events if name == "token"]
    assert not any("<" in token for token in tokens)  # no placeholder, whole or split
    assert "".join(tokens) == done["response"] == RESTORED
    assert set(done) >= SPEC_FIELDS and done["mode"] == "generated"
    assert done["calls"] == {"llm": 1, "embed": 1, "vector": 1, "store": 2}
    assert kit.store.chats and len(kit.tracer.events) == 1  # saved and traced once

    plain = (await kit.client.post("/v1/chat", json={"message": QUESTION}, headers=headers)).json()
    for fields in (plain, done):
        del fields["latency_ms"], fields["trace_id"]
    assert done == plain
    assert len(kit.store.chats) == 4 and len(kit.tracer.events) == 2  # one turn per chat


async def test_a_reject_streams_as_an_answer_that_cost_nothing(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    events = await stream_events(kit, headers, ABUSIVE)

    assert [name for name, _ in events] == ["meta", "token", "done"]
    done = events[-1][1]
    assert events[0][1]["route"] == "reject" and done["route"] == "reject"
    assert events[1][1]["text"] == done["response"] and done["response"]
    assert done["calls"] == {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    assert kit.store.chats == {} and len(kit.tracer.events) == 1


async def test_answers_not_from_the_model_come_as_one_token(make_kit: KitFactory) -> None:
    empty = await make_kit()  # no model; an empty knowledge base abstains
    seeded_kit = await seeded(make_kit)  # no model: extractive
    cases = [
        (empty, "good morning", "greeting", None),
        (empty, "How do I file a First Information Report?", "question", "abstained"),
        (seeded_kit, "When must a landlord return the security deposit?", "question", "extractive"),
    ]
    for kit, message, route, mode in cases:
        headers = await kit.headers_for("asha@example.org")
        events = await stream_events(kit, headers, message)
        assert [name for name, _ in events] == ["meta", "token", "done"], message
        done = events[-1][1]
        assert (done["route"], done["mode"]) == (route, mode)
        assert events[1][1] == {"text": done["response"]}


async def test_a_model_failing_midway_resets_the_shown_text(make_kit: KitFactory) -> None:
    kit = await seeded(make_kit, chat_model=BreaksMidway())
    headers = await kit.headers_for("asha@example.org")
    events = await stream_events(kit, headers, QUESTION)

    assert [name for name, _ in events] == ["meta", "token", "reset", "token", "done"]
    done = events[-1][1]
    assert events[1][1] == {"text": "Within one "}
    assert done["mode"] == "degraded" and done["sources"]
    assert tokens_after_last_reset(events) == done["response"]


async def test_the_checks_of_post_chat_apply_before_any_event(make_kit: KitFactory) -> None:
    kit = await make_kit(max_message_chars=100, rate_limit_per_minute=3)
    headers = await kit.headers_for("asha@example.org")

    no_token = await kit.client.post("/v1/chat/stream", json={"message": "hi"})
    too_long = await stream(kit, headers, "my card is 4111 1111 1111 1111 " + "x" * 100)
    empty = await stream(kit, headers, "   ")
    extra = await kit.client.post(
        "/v1/chat/stream", json={"message": "hi", "user_id": "someone"}, headers=headers
    )
    limited = await stream(kit, headers, "hi")

    assert (no_token.status_code, no_token.json()["error"]) == (401, "not_authenticated")
    assert (too_long.status_code, too_long.json()["error"]) == (413, "message_too_large")
    assert (empty.status_code, empty.json()["error"]) == (422, "empty_message")
    assert (extra.status_code, extra.json()["error"]) == (422, "invalid_request")
    assert (limited.status_code, limited.json()["error"]) == (429, "rate_limited")
    assert kit.classified == [] and kit.detector.calls == 0 and kit.tracer.events == []


async def test_a_client_that_goes_away_does_not_lose_the_turn(make_kit: KitFactory) -> None:
    model = WaitsToAnswer(replies=[REPLY])
    kit = await seeded(make_kit, chat_model=model)
    chat = kit.container.chat
    user = Principal("u-1", "Asha Rao", "asha@example.org")
    events = chat.stream(user, QUESTION)
    assert isinstance(await anext(events), Started)
    await model.asked.wait()
    await events.aclose()  # the client disconnects while the model is answering
    assert kit.store.chats == {} and kit.tracer.events == []

    model.release.set()
    await chat.finish_running(5.0)
    assert len(kit.store.chats) == 2  # stored masked; the owner reads it restored:
    assert {r.content for r in await chat.history(user, limit=10)} == {QUESTION, RESTORED}
    assert len(kit.tracer.events) == 1
    labels = {"route": "question", "mode": "generated"}
    assert chat.metrics.registry.get_sample_value("warden_chats_total", labels) == 1
