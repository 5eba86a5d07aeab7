"""Verifies a bearer token with PyJWT's public API, reading the time claims on our clock.

PyJWT checks `iat`, `nbf` and `exp` against the system time, and its public API takes no clock.
So those three checks are switched off in PyJWT and made here against the service's clock, the
one the token cache reads too, so both always agree on whether a token has expired. PyJWT's
order of checks is kept, so a token with several faults is refused with the same error code:

1. `jwt.decode`: the signature (one fixed algorithm per key) and the required claims;
2. here: iat, nbf, exp, with PyJWT's rules, exceptions and leeway;
3. `jwt.decode` again: issuer, audience, subject and jti (the signature is checked again)."""

from __future__ import annotations

from typing import Any

import jwt
from jwt.types import Options

from service.errors import ServiceError

LEEWAY_S = 30.0  # seconds a time claim may be off (clock skew between issuer and service)
_BEARER = {"WWW-Authenticate": "Bearer"}
_TIME_CHECKS_OFF: Options = {"verify_iat": False, "verify_nbf": False, "verify_exp": False}


def unauthorized(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, 401, headers=_BEARER)


def verified_claims(
    token: str,
    key: Any,
    alg: str,
    *,
    issuer: str,
    audience: str | None,
    now: float,
    subject: str = "sub",
) -> dict[str, Any]:
    """The token's claims, or a 401 ServiceError (`token_expired` or `invalid_token`).
    `subject` names the claim that must carry the user's id."""
    required = [subject, "exp", "iss"] + (["aud"] if audience else [])
    signature_and_presence: Options = {
        "require": required,
        **_TIME_CHECKS_OFF,
        "verify_iss": False,
        "verify_aud": False,
        "verify_sub": False,
        "verify_jti": False,
    }
    claim_values: Options = {"require": required, **_TIME_CHECKS_OFF, "verify_aud": bool(audience)}
    try:
        claims = jwt.decode(token, key, algorithms=[alg], options=signature_and_presence)
        _check_times(claims, now, LEEWAY_S)
        jwt.decode(
            token, key, algorithms=[alg], issuer=issuer, audience=audience, options=claim_values
        )
    except jwt.ExpiredSignatureError:
        raise unauthorized("token_expired", "The token has expired.") from None
    except jwt.MissingRequiredClaimError as exc:
        raise unauthorized("invalid_token", f"The token lacks the '{exc.claim}' claim.") from None
    except jwt.InvalidTokenError:
        raise unauthorized("invalid_token", "The token could not be verified.") from None
    return claims


def _check_times(claims: dict[str, Any], now: float, leeway: float) -> None:
    """PyJWT's iat, nbf and exp checks, each only when the claim is present, against `now`."""
    if "iat" in claims:
        iat = _integer(claims, "iat", jwt.InvalidIssuedAtError, "Issued At claim (iat)")
        if iat > now + leeway:
            raise jwt.ImmatureSignatureError("The token is not yet valid (iat)")
    if "nbf" in claims:
        nbf = _integer(claims, "nbf", jwt.DecodeError, "Not Before claim (nbf)")
        if nbf > now + leeway:
            raise jwt.ImmatureSignatureError("The token is not yet valid (nbf)")
    if "exp" in claims:
        exp = _integer(claims, "exp", jwt.DecodeError, "Expiration Time claim (exp)")
        if exp <= now - leeway:
            raise jwt.ExpiredSignatureError("Signature has expired")


def _integer(
    claims: dict[str, Any], name: str, error: type[jwt.InvalidTokenError], label: str
) -> int:
    try:
        return int(claims[name])
    except (ValueError, TypeError, OverflowError):
        raise error(f"{label} must be an integer.") from None
