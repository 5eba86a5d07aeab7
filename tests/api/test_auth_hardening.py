"""Auth hardening: the external provider needs issuer and audience and turns local accounts
off; failed logins are throttled per IP and per account without locking a victim out;
register is throttled; hashing has its own small pool; keys and error locations echo nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import jwt
import pytest
from argon2 import PasswordHasher
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pydantic import ValidationError

from service.app import create_app
from service.auth.passwords import Passwords
from service.auth.throttle import AuthThrottle
from tests.api.conftest import PASSWORD, SECRET, Kit, KitFactory, make_settings

IDP = {"jwt_external_issuer": "https://idp.test", "jwt_external_audience": "warden"}


def _rsa_pair() -> tuple[Any, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return key, pem.decode()


def _claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"sub": "u-1", "iss": "https://idp.test", "aud": "warden", "exp": now + 600}
    return {**claims, "iat": now, **overrides}


def _client_from(kit: Kit, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(kit.container), client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://warden.test")


async def _login(client: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    return await client.post("/v1/auth/token", data={"username": email, "password": password})


def _no_wait_throttle(kit: Kit, delays: list[float]) -> None:
    """Swaps in a throttle (3 failures per IP, 3 per account) whose per-account delay is
    recorded instead of slept."""

    async def record(seconds: float) -> None:
        delays.append(seconds)

    kit.container.accounts.throttle = AuthThrottle(
        requests_per_ip=1000, failures_per_ip=3, failures_per_account=3, sleep=record
    )


# ------------------------------------------------------------------ M1: external provider


@pytest.mark.parametrize("missing", ["jwt_external_issuer", "jwt_external_audience", "both"])
def test_a_public_key_without_issuer_and_audience_refuses_to_start(
    tmp_path: Any, missing: str
) -> None:
    _, pem = _rsa_pair()
    values = {k: v for k, v in IDP.items() if missing not in (k, "both")}
    with pytest.raises(ValidationError, match="ISSUER and WARDEN_JWT_EXTERNAL_AUDIENCE"):
        make_settings(tmp_path, jwt_public_key=pem, **values)
    key_file = tmp_path / "idp.pem"
    key_file.write_text(pem)
    with pytest.raises(ValidationError, match="needs both"):
        make_settings(tmp_path, jwt_public_key_file=key_file, **values)


def test_a_settings_error_does_not_print_the_secret(tmp_path: Any) -> None:
    _, pem = _rsa_pair()
    with pytest.raises(ValidationError) as error:
        make_settings(tmp_path, jwt_public_key=pem)
    assert SECRET not in str(error.value)


async def test_with_a_provider_local_accounts_are_off_unless_opted_in(make_kit: KitFactory) -> None:
    _, pem = _rsa_pair()
    kit = await make_kit(jwt_public_key=pem, **IDP)

    register = await kit.register("asha@example.org")
    login = await kit.login("asha@example.org")
    own_token = jwt.encode(
        {"sub": "u-1", "iss": "warden", "exp": int(time.time()) + 600}, SECRET, algorithm="HS256"
    )
    history = await kit.client.get(
        "/v1/chat/history", headers={"Authorization": f"Bearer {own_token}"}
    )

    assert register.status_code == login.status_code == 403
    assert register.json()["error"] == "local_accounts_disabled"
    assert kit.store.users == {}
    assert history.status_code == 401

    opted_in = await make_kit(jwt_public_key=pem, allow_local_accounts=True, **IDP)
    headers = await opted_in.headers_for("asha@example.org")
    assert (await opted_in.client.get("/v1/chat/history", headers=headers)).status_code == 200


async def test_external_subjects_never_equal_a_local_user_id(make_kit: KitFactory) -> None:
    private, pem = _rsa_pair()
    kit = await make_kit(jwt_public_key=pem, allow_local_accounts=True, **IDP)
    await kit.token_for("asha@example.org")
    local_id = kit.store.users["asha@example.org"].id

    principal = kit.container.tokens.verify(
        jwt.encode(_claims(sub=local_id), private, algorithm="RS256")
    )
    other_sub = kit.container.tokens.verify(
        jwt.encode(_claims(sub=local_id + "x"), private, algorithm="RS256")
    )

    assert principal.user_id != local_id
    assert principal.user_id.startswith("ext:") and len(principal.user_id) == 36
    assert local_id not in principal.user_id
    assert other_sub.user_id != principal.user_id


# ------------------------------------------------------------------ M2: login throttling


async def test_failures_from_another_ip_do_not_lock_the_right_password_out(
    make_kit: KitFactory,
) -> None:
    kit = await make_kit(rate_limit_per_minute=1)
    await kit.register("victim@example.org")
    delays: list[float] = []
    _no_wait_throttle(kit, delays)
    attacker, victim = _client_from(kit, "10.0.0.66"), _client_from(kit, "10.0.0.7")
    async with attacker, victim:
        answers = [
            (await _login(attacker, "victim@example.org", f"guess-{i}")).status_code
            for i in range(5)
        ]
        right = await _login(victim, "victim@example.org", PASSWORD)

    assert answers == [401, 401, 401, 429, 429]
    assert right.status_code == 200
    assert delays  # the targeted account is slowed, not refused


async def test_successful_logins_do_not_use_the_failure_budget(make_kit: KitFactory) -> None:
    kit = await make_kit(login_attempts_per_minute=2, rate_limit_per_minute=1)
    await kit.register("asha@example.org")

    answers = [(await kit.login("asha@example.org")).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 200]


async def test_chat_limit_zero_does_not_switch_login_throttling_off(
    make_kit: KitFactory,
) -> None:
    kit = await make_kit(rate_limit_per_minute=0, login_attempts_per_minute=2)
    answers = [(await kit.login(f"user{i}@example.org", "guess")).status_code for i in range(3)]

    assert answers == [401, 401, 429]  # per IP: spraying many accounts counts too
    assert kit.container.settings.login_attempts_per_minute == 2


def test_login_throttle_defaults(tmp_path: Any) -> None:
    settings = make_settings(tmp_path)
    assert settings.login_attempts_per_minute == 10
    assert settings.login_failures_per_account_per_minute > settings.login_attempts_per_minute


# ------------------------------------------------------------------ M3: register, hashing


async def test_register_is_throttled_per_ip(make_kit: KitFactory) -> None:
    kit = await make_kit(auth_requests_per_ip_per_minute=2)
    answers = [(await kit.register(f"u{i}@example.org")).status_code for i in range(3)]
    async with _client_from(kit, "10.0.0.9") as other:
        elsewhere = await other.post(
            "/v1/auth/register",
            json={"email": "z@example.org", "password": PASSWORD, "name": "Z"},
        )

    assert answers == [202, 202, 429]
    assert elsewhere.status_code == 202
    assert len(kit.store.users) == 3


class _SlowHasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.lock = threading.Lock()
        self.running = self.peak = 0
        self.threads: set[str] = set()

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
            self.threads.add(threading.current_thread().name)
        time.sleep(0.03)
        with self.lock:
            self.running -= 1
        return super().hash(password, salt=salt)


async def test_hashing_runs_in_its_own_small_pool() -> None:
    hasher = _SlowHasher()
    passwords = Passwords(hasher)
    hasher.threads.clear()

    hashes = await asyncio.gather(*(passwords.hash(f"password {i}") for i in range(6)))

    assert len(hashes) == 6 and await passwords.verify("password 0", hashes[0])
    assert hasher.peak <= 2
    assert all(name.startswith("argon2") for name in hasher.threads)


# ------------------------------------------------------------------ L1, L2: echoes and keys


async def test_an_overlong_username_is_422_and_never_kept(kit: Kit) -> None:
    huge = "a" * 60_000 + "@example.org"
    response = await kit.login(huge, "guess")
    await kit.login("asha@example.org", "guess")

    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
    throttle = kit.container.accounts.throttle
    keys = [*throttle.ip_failures.tracked_keys(), *throttle.account_failures.tracked_keys()]
    assert keys and all(len(key) <= 64 and "@" not in key for key in keys)


async def test_unknown_json_keys_are_not_echoed_in_error_locations(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    chat = await kit.client.post(
        "/v1/chat", json={"message": "x", "asha.rao@example.com": 1}, headers=headers
    )
    register = await kit.client.post(
        "/v1/auth/register",
        json={"email": "b@example.org", "password": PASSWORD, "name": "B", "Asha Rao": 1},
    )

    for response in (chat, register):
        assert response.status_code == 422
        assert {"loc": ["body", "<extra>"], "msg": "Extra inputs are not permitted"} in (
            response.json()["detail"]
        )
    assert "asha.rao" not in chat.text and "Asha Rao" not in register.text


def test_dict_keys_in_error_locations_are_replaced() -> None:
    from service.errors import safe_location

    assert safe_location(("body", "tags", "asha@x.org", "[key]"), "string_type") == [
        "body",
        "tags",
        "<key>",
        "[key]",
    ]
    assert safe_location(("body", "meta", "Asha Rao", 0), "int_parsing") == [
        "body",
        "meta",
        "<key>",
        0,
    ]
    assert safe_location(("body", "message"), "string_too_long") == ["body", "message"]
