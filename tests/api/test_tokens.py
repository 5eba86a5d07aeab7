"""Every way a bearer token can be wrong gets a 401 in the error envelope."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.api.conftest import SECRET, Kit, KitFactory


def _claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims: dict[str, Any] = {"sub": "u-1", "name": "Asha", "email": "a@example.org"}
    claims["iss"] = "warden"
    claims.update({"iat": now, "exp": now + 600})
    claims.update(overrides)
    return {k: v for k, v in claims.items() if v is not None}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _part(value: dict[str, Any]) -> str:
    return _b64(json.dumps(value).encode())


def _unsigned(claims: dict[str, Any]) -> str:
    return f"{_part({'alg': 'none', 'typ': 'JWT'})}.{_part(claims)}."


def _hs256_by_hand(claims: dict[str, Any], key: bytes) -> str:
    signing_input = f"{_part({'alg': 'HS256', 'typ': 'JWT'})}.{_part(claims)}"
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{_b64(signature)}"


def _rsa_pair() -> tuple[Any, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return key, pem.decode()


async def _history(kit: Kit, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return await kit.client.get("/v1/chat/history", headers=headers)


async def test_a_valid_token_is_accepted(kit: Kit) -> None:
    response = await _history(kit, jwt.encode(_claims(), SECRET, algorithm="HS256"))
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("token", "code"),
    [
        (None, "not_authenticated"),
        ("not-a-jwt", "invalid_token"),
        (
            jwt.encode(_claims(exp=int(time.time()) - 3600), SECRET, algorithm="HS256"),
            "token_expired",
        ),
        (jwt.encode(_claims(), "another-secret-" + "y" * 40, algorithm="HS256"), "invalid_token"),
        (_unsigned(_claims()), "invalid_token"),
        (jwt.encode(_claims(sub=None), SECRET, algorithm="HS256"), "invalid_token"),
        (jwt.encode(_claims(exp=None), SECRET, algorithm="HS256"), "invalid_token"),
        (jwt.encode(_claims(sub=""), SECRET, algorithm="HS256"), "invalid_token"),
        (jwt.encode(_claims(iss="someone-else"), SECRET, algorithm="HS256"), "invalid_token"),
        (jwt.encode(_claims(), SECRET, algorithm="HS512"), "invalid_token"),
    ],
    ids=[
        "missing",
        "garbage",
        "expired",
        "other-key",
        "alg-none",
        "no-sub",
        "no-exp",
        "empty-sub",
        "other-issuer",
        "other-alg",
    ],
)
async def test_bad_tokens_get_401(kit: Kit, token: str | None, code: str) -> None:
    response = await _history(kit, token)

    assert response.status_code == 401
    assert response.json()["error"] == code
    assert set(response.json()) == {"error", "detail"}
    assert response.headers["www-authenticate"] == "Bearer"


async def test_external_identity_provider_tokens(make_kit: KitFactory) -> None:
    private, public_pem = _rsa_pair()
    stranger, _ = _rsa_pair()
    kit = await make_kit(
        jwt_public_key=public_pem,
        jwt_external_issuer="https://idp.test",
        jwt_external_audience="warden",
    )
    good = _claims(iss="https://idp.test", aud="warden")

    assert (await _history(kit, jwt.encode(good, private, algorithm="RS256"))).status_code == 200
    for token in (
        jwt.encode(good, stranger, algorithm="RS256"),  # signed by another key
        jwt.encode({**good, "aud": "other"}, private, algorithm="RS256"),
        jwt.encode({**good, "iss": "https://evil.test"}, private, algorithm="RS256"),
    ):
        response = await _history(kit, token)
        assert response.status_code == 401 and response.json()["error"] == "invalid_token"


async def test_public_key_used_as_an_hmac_secret_is_refused(make_kit: KitFactory) -> None:
    """Algorithm confusion: an HS256 token 'signed' with the IdP's public key."""
    _, public_pem = _rsa_pair()
    kit = await make_kit(
        jwt_public_key=public_pem,
        jwt_external_issuer="https://idp.test",
        jwt_external_audience="warden",
        allow_local_accounts=True,  # own HS256 tokens stay accepted: the control below
    )
    token = _hs256_by_hand(_claims(), public_pem.encode())
    control = _hs256_by_hand(_claims(), SECRET.encode())  # the same recipe with the real key

    assert (await _history(kit, control)).status_code == 200

    response = await _history(kit, token)
    assert response.status_code == 401 and response.json()["error"] == "invalid_token"
