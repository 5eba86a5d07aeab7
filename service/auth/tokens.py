"""Bearer tokens: own HS256, or an identity provider's RS256 (passwords: service/auth/passwords.py).

Verified tokens are cached until their `exp` (service/auth/token_cache.py): a token's signature
is checked once, not on every request. Verification itself is service/auth/jwt_checks.py.

External subjects are namespaced: a provider's token maps to user_id
"ext:" + sha256(issuer + "|" + sub)[:32 hex], which can never equal a local id (32 hex, no colon),
so an external `sub` cannot claim a local user's history or documents."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt

from pipelines.ports import UserRecord
from service.auth.access import AccessRules
from service.auth.jwt_checks import unauthorized, verified_claims
from service.auth.token_cache import DEFAULT_MAX_ENTRIES, VerifiedTokenCache
from service.errors import ServiceError


@dataclass(frozen=True)
class Principal:
    """Who is calling, from a verified token only. `user_id` is the token's opaque `sub`."""

    user_id: str
    name: str
    email: str
    issued_at: float = 0.0  # the token's `iat` (for revocation, service/auth/access.py)


def external_user_id(issuer: str, sub: str) -> str:
    """The opaque local id of a provider's subject (see the module docstring)."""
    digest = hashlib.sha256(f"{issuer}|{sub}".encode()).hexdigest()
    return f"ext:{digest[:32]}"


@dataclass(frozen=True)
class ExternalIdp:
    """An identity provider whose RS256 tokens are accepted (issuer and audience are required:
    without them a token the provider signed for any other app would pass)."""

    public_key_pem: str
    issuer: str
    audience: str

    def __post_init__(self) -> None:
        if not self.issuer or not self.audience:
            raise ValueError("an external identity provider needs an issuer and an audience")

    def key(self) -> Any:
        if not jwt.algorithms.has_crypto:
            raise RuntimeError("verifying RS256 tokens needs the 'cryptography' package")
        algorithm = jwt.algorithms.RSAAlgorithm(jwt.algorithms.RSAAlgorithm.SHA256)
        return algorithm.prepare_key(self.public_key_pem)


class TokenService:
    """Issues HS256 tokens; verifies them (and RS256 ones from `external`) with a fixed
    algorithm per key, so `alg: none` and algorithm confusion are refused. With `local`
    False, own tokens are neither issued nor accepted (provider tokens only)."""

    def __init__(
        self,
        secret: str,
        *,
        ttl: timedelta,
        issuer: str = "warden",
        external: ExternalIdp | None = None,
        local: bool = True,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        cache_size: int = DEFAULT_MAX_ENTRIES,
        access: AccessRules | None = None,
    ) -> None:
        self.access = access  # revoked tokens and disabled accounts, checked on every verify
        self._secret = secret
        self.ttl = ttl
        self.issuer = issuer
        self._external = external
        self.local = local
        self._external_key = external.key() if external else None
        self._clock = clock
        self.cache: VerifiedTokenCache[Principal] = VerifiedTokenCache(cache_size)

    def _now(self) -> float:
        return self._clock().timestamp()

    def issue(self, user: UserRecord) -> str:
        if not self.local:
            raise RuntimeError("own tokens are switched off (external identity provider only)")
        now = self._clock()
        claims = {
            "sub": user.id,
            "name": user.name,
            "email": user.email,
            "iss": self.issuer,
            "iat": int(now.timestamp()),
            "exp": int((now + self.ttl).timestamp()),
        }
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def verify(self, token: str) -> Principal:
        now = self._now()
        cached = self.cache.get(token, now)
        if cached is not None:
            if self.access is not None:
                self.access.check(cached.user_id, cached.issued_at)
            return cached
        try:
            alg = jwt.get_unverified_header(token).get("alg")
        except jwt.InvalidTokenError:
            raise unauthorized("invalid_token", "The token is malformed.") from None
        if alg == "HS256" and self.local:
            claims = verified_claims(
                token, self._secret, "HS256", issuer=self.issuer, audience=None, now=now
            )
            principal = self._principal(claims, None)
        elif alg == "RS256" and self._external is not None:
            ext = self._external
            claims = verified_claims(
                token,
                self._external_key,
                "RS256",
                issuer=ext.issuer,
                audience=ext.audience,
                now=now,
            )
            principal = self._principal(claims, ext.issuer)
        else:
            raise unauthorized("invalid_token", "The token's signing algorithm is not accepted.")
        if self.access is not None:
            self.access.check(principal.user_id, principal.issued_at)
        self.cache.put(token, principal, exp=int(claims["exp"]), now=now)
        return principal

    @staticmethod
    def _principal(claims: dict[str, Any], external_issuer: str | None) -> Principal:
        sub = claims.get("sub")
        if not isinstance(sub, str) or not sub.strip() or len(sub) > 256:
            raise unauthorized("invalid_token", "The token's subject is not valid.")
        name = claims.get("name") or claims.get("preferred_username") or ""
        email = claims.get("email") or ""
        user_id = external_user_id(external_issuer, sub) if external_issuer else sub
        iat = claims.get("iat")
        issued_at = float(iat) if isinstance(iat, int | float) else 0.0
        return Principal(user_id, str(name)[:200], str(email)[:320], issued_at)


def not_authenticated() -> ServiceError:
    return unauthorized("not_authenticated", "A bearer token is required.")
