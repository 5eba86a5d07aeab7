"""Operator commands on the embedded stores (issue 13): `warden users add|disable|enable|list|
revoke` for a deployment with sign-up off, revocation refusing the tokens issued before it
(also ones the token cache already holds), and the refusal while a service holds the store."""

from __future__ import annotations

import asyncio
import io
import json
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from pipelines.ports import AccessRule, access_key
from service.main import main
from tests.api.conftest import PASSWORD
from tests.fakes.detector import FakePiiDetector
from tests.integration.privacy_kit import Service, embedded_service

EMAIL = "operator.made@example.org"


@pytest.fixture
def data_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARDEN_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def warden(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    return code, capsys.readouterr().out


async def login(service: Service, email: str = EMAIL) -> tuple[int, dict[str, str]]:
    form = {"username": email, "password": PASSWORD}
    response = await service.client.post("/v1/auth/token", data=form)
    if response.status_code != 200:
        return response.status_code, {}
    return 200, {"Authorization": f"Bearer {response.json()['access_token']}"}


async def history_status(service: Service, headers: dict[str, str]) -> tuple[int, str]:
    response = await service.client.get("/v1/chat/history", headers=headers)
    return response.status_code, response.json().get("error", "")


def serve(tmp_path: Path) -> AbstractAsyncContextManager[Service]:
    return embedded_service(tmp_path, FakePiiDetector(), allow_signup=False)


def test_users_add_list_revoke_disable_enable(
    data_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = warden(monkeypatch, capsys, "users", "add", EMAIL, "--name", "Op", stdin="short\n")
    assert code == 1  # the password is too short: nothing created
    code, out = warden(
        monkeypatch, capsys, "users", "add", EMAIL, "--name", "Op", stdin=PASSWORD + "\n"
    )
    assert code == 0 and EMAIL in out
    assert warden(monkeypatch, capsys, "users", "add", EMAIL, stdin=PASSWORD + "\n")[0] == 1

    async def before_revoke() -> dict[str, str]:
        async with serve(data_env) as service:
            status, headers = await login(service)
            assert status == 200  # sign-up is off; the operator's account logs in
            assert await history_status(service, headers) == (200, "")
            return headers

    old = asyncio.run(before_revoke())
    time.sleep(1.1)  # `iat` has whole seconds: a token of the next second is newer
    assert warden(monkeypatch, capsys, "users", "revoke", EMAIL)[0] == 0
    code, out = warden(monkeypatch, capsys, "users", "list", "--json")
    (listed,) = json.loads(out)
    assert listed["email"] == EMAIL and listed["revoked_before"] and not listed["disabled"]

    async def after_revoke() -> None:
        async with serve(data_env) as service:
            assert await history_status(service, old) == (401, "token_revoked")
            await asyncio.sleep(1.1)
            status, fresh = await login(service)
            assert status == 200 and await history_status(service, fresh) == (200, "")

    asyncio.run(after_revoke())
    assert warden(monkeypatch, capsys, "users", "disable", EMAIL)[0] == 0

    async def disabled() -> None:
        async with serve(data_env) as service:
            assert (await login(service))[0] == 401
            user = await service.container.store.user_by_email(EMAIL)
            assert user is not None
            await service.container.access.set_disabled(user.id, False)  # as `users enable`
            assert (await login(service))[0] == 200

    asyncio.run(disabled())
    assert warden(monkeypatch, capsys, "users", "revoke", "nobody@example.org")[0] == 1


async def test_revocation_reaches_tokens_in_the_cache(tmp_path: Path) -> None:
    async with embedded_service(tmp_path, FakePiiDetector()) as service:
        headers = await service.headers_for("cached@example.org")
        assert await history_status(service, headers) == (200, "")  # verified and cached
        user = await service.container.store.user_by_email("cached@example.org")
        assert user is not None
        await service.container.access.revoke(user.id)
        assert await history_status(service, headers) == (401, "token_revoked")

        other = await service.headers_for("other@example.org")
        assert await history_status(service, other) == (200, "")
        # another process disables the account in the store: seen at the next refresh
        store = service.container.access._store  # noqa: SLF001 - the raw store behind it
        assert store is not None
        other_user = await service.container.store.user_by_email("other@example.org")
        assert other_user is not None
        await store.put_access_rule(AccessRule(access_key(other_user.id), disabled=True))
        assert await history_status(service, other) == (200, "")
        await service.container.access.refresh()
        assert await history_status(service, other) == (401, "account_disabled")


async def test_users_refuses_while_a_service_holds_the_store(
    data_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serve(data_env):
        code = await asyncio.to_thread(main, ["users", "list"])
    assert code == 2 and "in use" in capsys.readouterr().err
