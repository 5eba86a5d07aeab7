"""Which keys of a JWKS document are usable, and for which one algorithm."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from service.auth.jwks import JwksKeys, UnknownSigningKey, parse_jwks
from tests.jwks_server import SigningPair

RSA = SigningPair.rsa("r").jwk()
EC = SigningPair.ec("e").jwk()
P384 = {**SigningPair("p", "ES384", ec.generate_private_key(ec.SECP384R1())).jwk(), "alg": None}


@pytest.mark.parametrize(
    ("jwk", "algorithm"),
    [
        (RSA, "RS256"),
        ({**RSA, "alg": None}, "RS256"),  # no alg: implied by the key type
        (EC, "ES256"),
        ({**EC, "alg": None}, "ES256"),
        ({**RSA, "alg": "RS512"}, None),  # another algorithm than the two accepted
        ({**RSA, "alg": "ES256"}, None),  # an algorithm that does not fit the key
        ({**RSA, "use": "enc"}, None),  # an encryption key
        (P384, None),  # another curve
        ({"kty": "oct", "k": "c2VjcmV0", "kid": "r"}, None),  # a shared secret
        ({"kty": "RSA", "kid": "r", "n": "broken"}, None),
    ],
)
def test_usable_keys_and_their_algorithm(jwk: dict[str, Any], algorithm: str | None) -> None:
    entry = {k: v for k, v in jwk.items() if v is not None}
    keys = parse_jwks(json.dumps({"keys": [entry]}).encode())
    assert (keys[entry["kid"]].algorithm if keys else None) == algorithm


@pytest.mark.parametrize("document", [b"[]", b'{"keys": {}}', b"{}", b"not json"])
def test_a_document_that_is_no_jwks_is_refused(document: bytes) -> None:
    with pytest.raises(ValueError):
        parse_jwks(document)


def test_an_unknown_kid_is_reported_as_such() -> None:
    keys = JwksKeys("https://idp.test/jwks")
    with pytest.raises(UnknownSigningKey):
        keys.key("k", "RS256")
