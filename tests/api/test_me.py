"""`/v1/me` at the HTTP edge: a token is required, the routes are in the OpenAPI document,
and a deployment whose stores cannot erase a user's data says so (501) instead of half-doing
it. The real erasure runs in tests/integration/test_erase_me.py."""

from __future__ import annotations

import pytest

from tests.api.conftest import Kit

ROUTES = [("GET", "/v1/me/export"), ("DELETE", "/v1/me/history"), ("DELETE", "/v1/me")]


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_a_token_is_required(kit: Kit, method: str, path: str) -> None:
    response = await kit.client.request(method, path)
    assert response.status_code == 401 and response.json()["error"] == "not_authenticated"


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_stores_that_cannot_erase_say_so(kit: Kit, method: str, path: str) -> None:
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.request(method, path, headers=headers)
    assert response.status_code == 501 and response.json()["error"] == "not_supported"
    assert (await kit.client.get("/v1/chat/history", headers=headers)).status_code == 200


async def test_the_routes_are_documented(kit: Kit) -> None:
    paths = (await kit.client.get("/openapi.json")).json()["paths"]
    assert {"get"} <= set(paths["/v1/me/export"]) and "delete" in paths["/v1/me"]
    assert "delete" in paths["/v1/me/history"]
