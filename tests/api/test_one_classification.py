"""Every edge classifies a message exactly once, and every edge answers in the one schema.

The kit's container counts what its classifier is asked (`Kit.classified`): the fast refusal,
the JSON route, the SSE route and `warden ask` all go through `ChatService.accept`, and the
graph's classify node only routes on the verdict it is given.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from service.answer import ChatAnswer
from service.cli.ask import ask
from tests.api.conftest import Kit
from tests.api.test_chat import ABUSIVE
from tests.api.test_stream import parse_events

QUESTION, GREETING = "When must a landlord return the security deposit?", "good morning"
MESSAGES = [ABUSIVE, QUESTION, GREETING]
SCHEMA = set(ChatAnswer.model_fields)


async def _post(kit: Kit, path: str, message: str, content_type: str) -> Any:
    headers = {**await kit.headers_for("asha@example.org"), "Content-Type": content_type}
    body = json.dumps({"message": message})
    return await kit.client.post(path, content=body, headers=headers)


@pytest.mark.parametrize("message", MESSAGES)
@pytest.mark.parametrize("content_type", ["application/json", "application/vnd.warden+json"])
async def test_json_chat_classifies_once(kit: Kit, message: str, content_type: str) -> None:
    """`application/json` meets the fast refusal first; the other type reaches the route only."""
    response = await _post(kit, "/v1/chat", message, content_type)

    assert response.status_code == 200, response.text
    assert kit.classified == [message]
    assert set(response.json()) == SCHEMA


@pytest.mark.parametrize("message", MESSAGES)
async def test_streamed_chat_classifies_once(kit: Kit, message: str) -> None:
    response = await _post(kit, "/v1/chat/stream", message, "application/json")

    events = parse_events(response.text)
    assert response.status_code == 200 and events[-1][0] == "done"
    assert kit.classified == [message]
    assert set(events[-1][1]) == SCHEMA


async def test_warden_ask_classifies_each_line_once(kit: Kit) -> None:
    lines = "".join(json.dumps({"question": m, "user": "u-1"}) + "\n" for m in MESSAGES)
    out = io.StringIO()

    code = await ask(kit.container.chat, None, "cli", "", True, stdin=io.StringIO(lines), out=out)

    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0 and kit.classified == MESSAGES
    assert [a["route"] for a in answers] == ["reject", "question", "greeting"]
    assert all(set(answer) == SCHEMA for answer in answers)


async def test_the_openapi_document_declares_the_same_schema(kit: Kit) -> None:
    document = (await kit.client.get("/openapi.json")).json()
    declared = document["paths"]["/v1/chat"]["post"]["responses"]["200"]["content"]
    assert declared["application/json"]["schema"] == {"$ref": "#/components/schemas/ChatAnswer"}
    assert set(document["components"]["schemas"]["ChatAnswer"]["properties"]) == SCHEMA


async def test_a_message_sent_again_is_not_classified_again(kit: Kit) -> None:
    """The verdict cache: a flood of the same abuse costs one classification."""
    for _ in range(3):
        response = await _post(kit, "/v1/chat", ABUSIVE, "application/json")
        assert response.status_code == 200 and response.json()["route"] == "reject"
        assert not any(response.json()["calls"].values())  # a cached reject costs nothing either
    assert kit.classified == [ABUSIVE]
