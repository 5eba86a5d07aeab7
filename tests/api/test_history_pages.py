"""GET /v1/chat/history pages back with `next_cursor` / `cursor` (issue 14)."""

from __future__ import annotations

from datetime import timedelta

from tests.api.conftest import Kit
from tests.fakes.store import make_turn, utc_now


async def test_history_pages_back_to_the_first_message(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    user_id = kit.store.users["asha@example.org"].id
    start = utc_now() - timedelta(hours=1)
    turns = [make_turn(user_id, f"t-{i}", start + timedelta(minutes=i)) for i in range(5)]
    for records in turns:
        await kit.store.save_turn(records)

    pages, cursor = [], None
    while True:
        params: dict[str, str | int] = {"limit": 4}
        if cursor:
            params["cursor"] = cursor
        body = (await kit.client.get("/v1/chat/history", headers=headers, params=params)).json()
        pages.append([m["turn_id"] + ":" + m["role"] for m in body["messages"]])
        cursor = body["next_cursor"]
        if cursor is None:
            break
    expected = [f"{r.turn_id}:{r.role}" for records in turns for r in records]
    assert [m for page in reversed(pages) for m in page] == expected
    assert [len(p) for p in pages] == [4, 4, 2]


async def test_a_bad_cursor_is_422(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    for bad in ("not-a-cursor", "bm9wZXxub3Bl"):
        response = await kit.client.get("/v1/chat/history", headers=headers, params={"cursor": bad})
        assert response.status_code == 422
        assert response.json()["error"] == "invalid_request"
