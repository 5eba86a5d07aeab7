"""An identity provider's JWKS served on loopback: RS256 and ES256 tokens, key rotation, the
refresh budget (once a minute), every forged or misaddressed token refused, and an outage."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from service.auth.external_idp import ClaimNames, ExternalIdp
from service.auth.jwks import JwksKeys
from service.auth.tokens import TokenService
from tests.api.conftest import SECRET, Kit, KitFactory, make_settings
from tests.jwks_server import JwksServer, SigningPair

ISSUER, AUDIENCE = "https://idp.test", "warden"
IDP = {"jwt_external_issuer": ISSUER, "jwt_external_audience": AUDIENCE}


def _claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"sub": "u-1", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 600}
    return {k: v for k, v in {**claims, **overrides}.items() if v is not None}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _by_hand(header: dict[str, Any], claims: dict[str, Any], key: bytes | None) -> str:
    signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
    if key is None:
        return f"{signing_input}."
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{_b64(signature)}"


@pytest.fixture
def idp() -> Iterator[JwksServer]:
    with JwksServer().running() as server:
        yield server


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _with_clock(kit: Kit, url: str, clock: Clock) -> JwksKeys:
    """The kit's token service, with a JWKS cache whose refresh clock the test turns."""
    keys = JwksKeys(url, clock=clock)
    external = ExternalIdp(ISSUER, AUDIENCE, jwks=keys)
    kit.container.tokens = TokenService(
        SECRET, ttl=timedelta(minutes=60), external=external, local=False
    )
    return keys


async def _status(kit: Kit, token: str) -> tuple[int, str | None]:
    response = await kit.client.get(
        "/v1/chat/history", headers={"Authorization": f"Bearer {token}"}
    )
    return response.status_code, response.json().get("error") if response.is_error else None


async def test_rs256_and_es256_tokens_from_the_jwks_are_accepted(
    make_kit: KitFactory, idp: JwksServer
) -> None:
    rsa_key, ec_key = SigningPair.rsa("rsa-1"), SigningPair.ec("ec-1")
    idp.serve(rsa_key, ec_key)
    kit = await make_kit(jwt_jwks_url=idp.url, **IDP)

    assert await _status(kit, rsa_key.sign(_claims())) == (200, None)
    assert await _status(kit, ec_key.sign(_claims(sub="u-2"))) == (200, None)
    assert idp.requests == 1  # one fetch served both keys


async def test_a_token_signed_after_a_key_rotation_is_accepted(
    make_kit: KitFactory, idp: JwksServer
) -> None:
    old, new = SigningPair.rsa("2025"), SigningPair.ec("2026")
    idp.serve(old)
    kit = await make_kit(**IDP)
    clock = Clock()
    _with_clock(kit, idp.url, clock)
    assert await _status(kit, old.sign(_claims())) == (200, None)

    idp.serve(new)  # the provider rotates its key
    clock.now += 61
    assert await _status(kit, new.sign(_claims())) == (200, None)
    assert idp.requests == 2


async def test_unknown_key_ids_refresh_the_keys_at_most_once_a_minute(
    make_kit: KitFactory, idp: JwksServer
) -> None:
    known, later = SigningPair.rsa("k1"), SigningPair.rsa("k2")
    idp.serve(known)
    kit = await make_kit(**IDP)
    clock = Clock()
    _with_clock(kit, idp.url, clock)
    assert await _status(kit, known.sign(_claims())) == (200, None)

    idp.serve(known, later)
    for made_up in range(20):
        stranger = SigningPair(f"made-up-{made_up}", "RS256", later.private)
        assert await _status(kit, stranger.sign(_claims())) == (401, "invalid_token")
    assert await _status(kit, later.sign(_claims())) == (401, "invalid_token")  # not yet due
    assert idp.requests == 1

    clock.now += 59.0
    assert await _status(kit, later.sign(_claims(sub="u-2"))) == (401, "invalid_token")
    clock.now += 1.0
    assert await _status(kit, later.sign(_claims(sub="u-3"))) == (200, None)
    assert idp.requests == 2


def _refused_tokens(good: SigningPair, other: SigningPair) -> dict[str, str]:
    """Each way a token must be refused, signed (if at all) with the provider's keys."""
    public_pem = good.public_pem()
    now = int(time.time())
    return {
        "wrong issuer": good.sign(_claims(iss="https://evil.test")),
        "wrong audience": good.sign(_claims(aud="another-app")),
        "expired": good.sign(_claims(iat=now - 7200, exp=now - 3600)),
        "unknown kid after refresh": other.sign(_claims()),
        "HS256 signed with the public key": _by_hand(
            {"alg": "HS256", "typ": "JWT", "kid": good.kid}, _claims(), public_pem
        ),
        "alg none": _by_hand({"alg": "none", "typ": "JWT", "kid": good.kid}, _claims(), None),
        "ES256 header on an RSA key": _by_hand(
            {"alg": "ES256", "typ": "JWT", "kid": good.kid}, _claims(), public_pem
        ),
        "no subject": good.sign(_claims(sub=None)),
    }


@pytest.mark.parametrize("local_accounts", [False, True])
async def test_forged_and_misaddressed_tokens_get_401(
    make_kit: KitFactory, idp: JwksServer, local_accounts: bool
) -> None:
    good = SigningPair.rsa("good")
    idp.serve(good)
    kit = await make_kit(jwt_jwks_url=idp.url, allow_local_accounts=local_accounts, **IDP)
    assert await _status(kit, good.sign(_claims())) == (200, None)

    for case, token in _refused_tokens(good, SigningPair.rsa("not-published")).items():
        status, code = await _status(kit, token)
        assert status == 401, case
        expected = "token_expired" if case == "expired" else "invalid_token"
        assert code == expected, case


async def test_an_outage_refuses_only_unseen_keys_with_a_stable_503(
    make_kit: KitFactory, idp: JwksServer
) -> None:
    seen, unseen = SigningPair.rsa("seen"), SigningPair.ec("unseen")
    idp.serve(seen)
    kit = await make_kit(**IDP)
    clock = Clock()
    keys = _with_clock(kit, idp.url, clock)
    assert await _status(kit, seen.sign(_claims())) == (200, None)

    idp.status = 500
    idp.serve(seen, unseen)
    clock.now += 61
    assert await _status(kit, unseen.sign(_claims())) == (503, "identity_provider_unavailable")
    assert await _status(kit, seen.sign(_claims(sub="u-2"))) == (200, None)
    assert keys.unavailable

    idp.status = 200  # back: the next fetch, a minute later, loads the new key
    clock.now += 61
    assert await _status(kit, unseen.sign(_claims())) == (200, None)


async def test_an_unreachable_provider_is_a_503_not_a_crash(make_kit: KitFactory) -> None:
    kit = await make_kit(jwt_jwks_url="http://127.0.0.1:9/jwks.json", **IDP)  # discard port
    token = SigningPair.rsa("any").sign(_claims())
    assert await _status(kit, token) == (503, "identity_provider_unavailable")


async def test_the_fetch_does_not_block_the_event_loop(idp: JwksServer) -> None:
    key = SigningPair.rsa("slow")
    idp.serve(key)
    idp.delay_s = 0.5
    keys = JwksKeys(idp.url)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    assert await keys.refresh() is True
    task.cancel()
    assert ticks >= 10  # the loop kept running during the half-second fetch
    assert keys.key("slow", "RS256") is not None


async def test_claim_names_are_configurable(make_kit: KitFactory, idp: JwksServer) -> None:
    key = SigningPair.ec("ec")
    idp.serve(key)
    kit = await make_kit(
        jwt_jwks_url=idp.url,
        jwt_claim_user_id="oid",
        jwt_claim_name="display",
        jwt_claim_email="mail",
        **IDP,
    )
    claims = _claims(sub=None, oid="42", display="Asha Rao", mail="asha@example.org")
    principal = await kit.container.tokens.authenticate(key.sign(claims))

    assert principal.name == "Asha Rao" and principal.email == "asha@example.org"
    assert principal.user_id.startswith("ext:")
    external = kit.container.tokens.external
    assert external is not None and external.claims == ClaimNames("oid", "display", "mail")
    assert await _status(kit, key.sign(_claims(oid=None))) == (401, "invalid_token")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"jwt_jwks_url": "https://idp.test/jwks"}, "needs both"),
        ({"jwt_jwks_url": "file:///etc/passwd", **IDP}, "must be an http"),
        ({"jwt_jwks_url": "https://idp.test/jwks", "jwt_public_key": "x", **IDP}, "set one of"),
    ],
)
def test_jwks_settings_are_checked_at_start(
    tmp_path: Any, values: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        make_settings(tmp_path, **values)
