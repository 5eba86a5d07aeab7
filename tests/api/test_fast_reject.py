"""The HTTP fast path for rejects (service/fast_reject.py) answers exactly as the route would,
counts like it, and leaves every other request to the route.

Which one answered is seen through a FastAPI dependency override on the route's caller
dependency (`rate_limited_user`): the fast path never calls it. A body sent as
`application/vnd.warden+json` is JSON to FastAPI but not to the fast path, so it gives the
route's own answer to compare with.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import httpx
import jwt
import pytest
from fastapi import Depends, FastAPI, Request

from pipelines.ports import UserRecord
from service.app import create_app
from service.auth.tokens import Principal, TokenService
from service.http.deps import admit, authenticate, bearer, container_of, rate_limited_user
from tests.api.conftest import SECRET, Kit, KitFactory
from tests.api.test_chat import ABUSIVE

FAST, ROUTE = "application/json", "application/vnd.warden+json"
VOLATILE = {"trace_id", "latency_ms"}


@dataclass
class Spied:
    app: FastAPI
    client: httpx.AsyncClient
    kit: Kit
    route_calls: list[str] = field(default_factory=list)

    async def chat(
        self, headers: dict[str, str], message: str, content_type: str = FAST, **body: Any
    ) -> httpx.Response:
        content = json.dumps({"message": message, **body})
        sent = {**headers, "Content-Type": content_type}
        return await self.client.post("/v1/chat", content=content, headers=sent)

    def sample(self, name: str, **labels: str) -> float:
        registry = self.kit.container.chat.metrics.registry
        return registry.get_sample_value(name, labels) or 0.0


@pytest.fixture
async def spy_on() -> AsyncIterator[Callable[[Kit], Awaitable[Spied]]]:
    clients: list[httpx.AsyncClient] = []

    async def factory(kit: Kit) -> Spied:
        app = create_app(kit.container)
        transport = httpx.ASGITransport(app=app)
        client = httpx.AsyncClient(transport=transport, base_url="http://warden.test")
        spied = Spied(app, client, kit)

        async def recording_caller(
            request: Request, token: Annotated[str | None, Depends(bearer)]
        ) -> Principal:
            spied.route_calls.append(request.url.path)
            container = container_of(request)
            return admit(container, await authenticate(container, token))

        app.dependency_overrides[rate_limited_user] = recording_caller
        clients.append(spied.client)
        return spied

    yield factory
    for client in clients:
        await client.aclose()


def _stable(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key not in VOLATILE}


async def test_a_reject_from_the_fast_path_equals_the_routes(
    kit: Kit, spy_on: Callable[[Kit], Awaitable[Spied]]
) -> None:
    spied = await spy_on(kit)
    headers = await kit.headers_for("asha@example.org")

    fast = await spied.chat(headers, ABUSIVE)
    assert spied.route_calls == []
    routed = await spied.chat(headers, ABUSIVE, content_type=ROUTE)
    assert len(spied.route_calls) == 1

    assert fast.status_code == routed.status_code == 200
    assert fast.headers["content-type"] == routed.headers["content-type"] == "application/json"
    assert fast.json()["route"] == "reject"
    assert set(fast.json()) == set(routed.json())
    assert _stable(fast.json()) == _stable(routed.json())
    # traced alike, without the message; counted alike
    events = kit.tracer.events
    assert [e["trace_id"] for e in events] == [fast.json()["trace_id"], routed.json()["trace_id"]]
    assert _stable(events[0]) == _stable(events[1]) and events[0]["route"] == "reject"
    assert "idiot" not in json.dumps(events)
    assert spied.sample("warden_rejects_total") == 2
    assert spied.sample("warden_chats_total", route="reject", mode="none") == 2
    assert spied.sample("warden_chat_latency_seconds_count", route="reject") == 2
    assert kit.store.chats == {}


async def test_fast_path_rejects_count_against_the_rate_limit(
    make_kit: KitFactory, spy_on: Callable[[Kit], Awaitable[Spied]]
) -> None:
    kit = await make_kit(rate_limit_per_minute=2)
    spied = await spy_on(kit)
    asha = await kit.headers_for("asha@example.org")

    assert (await spied.chat(asha, ABUSIVE)).status_code == 200  # fast path
    assert (await spied.chat(asha, ABUSIVE, content_type=ROUTE)).status_code == 200  # route
    limited = await spied.chat(asha, ABUSIVE)  # over the limit: the route answers

    assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert len(spied.route_calls) == 2
    assert spied.sample("warden_rejects_total") == 2
    john = await kit.headers_for("john@example.org")
    assert (await spied.chat(john, ABUSIVE)).status_code == 200
    assert len(spied.route_calls) == 2


def _token(exp_offset_s: int = 600, key: str = SECRET) -> str:
    now = int(time.time())
    claims = {"sub": "u-1", "name": "Asha", "iss": "warden", "iat": now, "exp": now + exp_offset_s}
    return jwt.encode(claims, key, algorithm="HS256")


@pytest.mark.parametrize(
    ("authorization", "code"),
    [
        (None, "not_authenticated"),
        ("Basic dXNlcjpwYXNz", "not_authenticated"),
        ("Bearer not-a-jwt", "invalid_token"),
        (f"Bearer {_token(exp_offset_s=-3600)}", "token_expired"),
        (f"Bearer {_token(key='another-secret-' + 'y' * 40)}", "invalid_token"),
    ],
    ids=["missing", "not-bearer", "garbage", "expired", "other-key"],
)
async def test_auth_failures_are_the_routes(
    kit: Kit, spy_on: Callable[[Kit], Awaitable[Spied]], authorization: str | None, code: str
) -> None:
    spied = await spy_on(kit)
    headers = {"Authorization": authorization} if authorization else {}

    fast = await spied.chat(headers, ABUSIVE)
    routed = await spied.chat(headers, ABUSIVE, content_type=ROUTE)

    assert fast.status_code == routed.status_code == 401
    assert fast.json() == routed.json() and fast.json()["error"] == code
    assert set(fast.json()) == {"error", "detail"}
    assert fast.headers["www-authenticate"] == "Bearer"
    assert len(spied.route_calls) == 2  # the fast path passed it on
    assert kit.tracer.events == []


async def test_a_cached_token_is_refused_once_expired(
    kit: Kit, spy_on: Callable[[Kit], Awaitable[Spied]]
) -> None:
    now = datetime(2001, 1, 1, tzinfo=UTC)
    kit.container.tokens = TokenService(SECRET, ttl=timedelta(minutes=10), clock=lambda: now)
    spied = await spy_on(kit)
    token = kit.container.tokens.issue(UserRecord("u-1", "a@example.org", "Asha", "", now))
    headers = {"Authorization": f"Bearer {token}"}
    assert (await spied.chat(headers, ABUSIVE)).status_code == 200
    assert len(kit.container.tokens.cache) == 1

    now += timedelta(minutes=10, seconds=31)  # past exp and the 30 s leeway
    response = await spied.chat(headers, ABUSIVE)

    assert response.status_code == 401 and response.json()["error"] == "token_expired"
    assert len(spied.route_calls) == 1


@pytest.mark.parametrize(
    ("message", "route"), [("What is bail?", "question"), ("good morning", "greeting")]
)
async def test_anything_but_a_reject_goes_to_the_route(
    kit: Kit, spy_on: Callable[[Kit], Awaitable[Spied]], message: str, route: str
) -> None:
    spied = await spy_on(kit)
    headers = await kit.headers_for("asha@example.org")

    response = await spied.chat(headers, message)

    assert response.status_code == 200 and response.json()["route"] == route
    assert len(spied.route_calls) == 1


@pytest.mark.parametrize(("message", "routed"), [("What is bail?", 1), (ABUSIVE, 0)])
async def test_a_body_in_pieces_is_read_whole_and_handed_on_unchanged(
    kit: Kit, spy_on: Callable[[Kit], Awaitable[Spied]], message: str, routed: int
) -> None:
    spied = await spy_on(kit)
    headers = {**await kit.headers_for("asha@example.org"), "Content-Type": FAST}
    body = json.dumps({"message": message}).encode()

    async def pieces() -> AsyncIterator[bytes]:  # no Content-Length: sent chunked
        for start in range(0, len(body), 7):
            yield body[start : start + 7]

    response = await spied.client.post("/v1/chat", content=pieces(), headers=headers)

    assert response.status_code == 200, response.text
    assert response.json()["route"] == ("reject" if message == ABUSIVE else "question")
    assert len(spied.route_calls) == routed


async def test_unusual_requests_get_the_routes_errors(
    make_kit: KitFactory, spy_on: Callable[[Kit], Awaitable[Spied]]
) -> None:
    kit = await make_kit(max_message_chars=len(ABUSIVE) - 1)
    spied = await spy_on(kit)
    headers = await kit.headers_for("asha@example.org")
    cases = [
        (await spied.chat(headers, ABUSIVE), 413, "message_too_large"),  # before classifying
        (await spied.chat(headers, "   "), 422, "empty_message"),
        (await spied.chat(headers, "idiot", user_id="u-2"), 422, "invalid_request"),
        (await spied.chat(headers, "idiot", content_type="text/plain"), 422, "invalid_request"),
    ]
    malformed = await spied.client.post(
        "/v1/chat", content=b'{"message": "idiot", ', headers={**headers, "Content-Type": FAST}
    )

    for response, status, code in cases:
        assert (response.status_code, response.json()["error"]) == (status, code)
    assert len(spied.route_calls) == len(cases)
    assert (malformed.status_code, malformed.json()["error"]) == (422, "malformed_json")
    assert kit.tracer.events == [] and spied.sample("warden_rejects_total") == 0
