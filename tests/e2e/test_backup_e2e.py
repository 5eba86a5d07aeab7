"""Acceptance: `warden backup`, then `warden restore` into an empty data folder, gives the same
accounts, documents, history and answers, on the real embedded stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from service.app import create_app
from service.bootstrap import build_container, open_detector, open_embedder
from tests.api.conftest import CHEAP_PASSWORDS
from tests.e2e.conftest import (
    BAIL_QUESTION,
    PII_QUESTION,
    Prepared,
    copy_data,
    settings_for,
    warden,
)

ACCOUNTS = [
    {"email": "asha@example.org", "password": "long enough pw", "name": "Asha"},
    {"email": "ravi@example.org", "password": "another long pw", "name": "Ravi"},
]
NOTES = b"My own notes: the bail bond for my brother was set at ten thousand rupees by the court."
OWN_QUESTION = "What was the bail bond for my brother set at?"


def _answer(body: dict[str, Any]) -> tuple[Any, ...]:
    sources = tuple((s["source"], s["parent_id"], s["score"]) for s in body["sources"])
    return body["route"], body["response"], body["confidence"], sources


async def _seen(
    data: Path, models: dict[str, Any], tokens: list[str] | None = None
) -> tuple[list[str], dict[str, Any]]:
    """Opens the data folder as the service does (`models`: the embedder and PII detector,
    loaded once, and the password hasher); (tokens, what each account sees). Without tokens,
    it registers the accounts and fills the folder first."""
    container = await build_container(settings_for(data), **models)
    transport = httpx.ASGITransport(app=create_app(container))
    seen: dict[str, Any] = {}
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://warden.test") as api:
            if tokens is None:
                tokens = [await _fill(api, account) for account in ACCOUNTS]
            for account, token in zip(ACCOUNTS, tokens, strict=True):
                headers = {"Authorization": f"Bearer {token}"}
                login = {"username": account["email"], "password": account["password"]}
                relogin = await api.post("/v1/auth/token", data=login)
                documents = (await api.get("/v1/documents", headers=headers)).json()
                history = (await api.get("/v1/chat/history", headers=headers)).json()
                asked = await api.post("/v1/chat", json={"message": OWN_QUESTION}, headers=headers)
                seen[account["email"]] = {
                    "login": relogin.status_code,
                    "documents": documents,
                    "history": history["messages"],
                    "answer": _answer(asked.json()),
                }
            seen["vectors"] = await container.deps.index.count()
    finally:
        await container.close()
    return tokens, seen


async def _fill(api: httpx.AsyncClient, account: dict[str, str]) -> str:
    assert (await api.post("/v1/auth/register", json=account)).status_code == 202
    login = {"username": account["email"], "password": account["password"]}
    token: str = (await api.post("/v1/auth/token", data=login)).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    files = {"file": (f"{account['name']}-notes.txt", NOTES, "text/plain")}
    assert (await api.post("/v1/documents", files=files, headers=headers)).status_code == 201
    for message in (BAIL_QUESTION, PII_QUESTION):
        assert (await api.post("/v1/chat", json={"message": message}, headers=headers)).is_success
    return token


async def test_backup_then_restore_into_an_empty_folder_gives_the_same_service(
    prepared: Prepared, tmp_path: Path
) -> None:
    data = copy_data(prepared.data, tmp_path)
    models = {
        "embedder": await open_embedder(),
        "detector": await open_detector(),
        "passwords": CHEAP_PASSWORDS,  # hashing cost is not what this test is about
    }
    tokens, before = await _seen(data, models)
    mine = before[ACCOUNTS[0]["email"]]
    assert mine["login"] == 200 and len(mine["documents"]) == 1 and len(mine["history"]) == 4
    assert "Asha-notes.txt" in {s[0] for s in mine["answer"][3]}  # the answer uses the upload

    run = warden(data, "backup", str(tmp_path / "backup"))
    assert run.code == 0, run.err
    restored = tmp_path / "restored" / "data"  # an empty folder of its own
    restored.parent.mkdir()
    run = warden(restored, "restore", str(tmp_path / "backup"))
    assert run.code == 0, run.err

    _, after = await _seen(restored, models, tokens)  # the same tokens: the secret came along
    for account in ACCOUNTS:  # the question asked while looking is one more turn each
        before[account["email"]]["history"].extend(after[account["email"]]["history"][-2:])
    assert after == before
