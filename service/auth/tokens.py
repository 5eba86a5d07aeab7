"""Bearer tokens: own HS256, or an identity provider's RS256 / ES256 (service/auth/external_idp.py;
passwords: service/auth/passwords.py).

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
from service.auth.external_idp import ClaimNames, ExternalIdp
from service.auth.jwks import UnknownSigningKey
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


__all__ = ["ClaimNames", "ExternalIdp", "Principal", "TokenService", "not_authenticated"]
_LOCAL_CLAIMS = ClaimNames()


class TokenService:
    """Issues HS256 tokens; verifies them (and RS256 / ES256 ones from `external`) with a fixed
    algorithm per key, so `alg: none` and algorithm confusion are refused. With `local`
    False, own tokens are neither issued nor accepted (provider tokens only).

    `authenticate` is what requests call: when a provider token names a key not cached yet, it
    refreshes the provider's JWKS (at most once a minute) and verifies again."""

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
        self.external = external
        self.local = local
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

    async def authenticate(self, token: str) -> Principal:
        """`verify`, after refreshing the provider's keys when the token's key is unknown."""
        try:
            return self._verify(token)
        except UnknownSigningKey:
            pass
        assert self.external is not None  # only provider tokens look keys up
        await self.external.refresh_keys()
        try:
            return self._verify(token)
        except UnknownSigningKey:
            if self.external.keys_unavailable:
                raise ServiceError(
                    "identity_provider_unavailable",
                    "The identity provider's keys cannot be fetched; try again shortly.",
                    503,
                    headers={"Retry-After": "60"},
                ) from None
            raise unauthorized("invalid_token", "The token's signing key is unknown.") from None

    def verify(self, token: str) -> Principal:
        """The caller of a token, from the keys at hand (no fetch); a 401 ServiceError if not."""
        try:
            return self._verify(token)
        except UnknownSigningKey:
            raise unauthorized("invalid_token", "The token's signing key is unknown.") from None

    def _verify(self, token: str) -> Principal:
        now = self._now()
        cached = self.cache.get(token, now)
        if cached is not None:
            if self.access is not None:
                self.access.check(cached.user_id, cached.issued_at)
            return cached
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise unauthorized("invalid_token", "The token is malformed.") from None
        alg = header.get("alg")
        ext = self.external
        if alg == "HS256" and self.local:
            claims = verified_claims(
                token, self._secret, "HS256", issuer=self.issuer, audience=None, now=now
            )
            principal = self._principal(claims, None, _LOCAL_CLAIMS)
        elif ext is not None and ext.accepts(alg):
            try:
                key = ext.key_for(header)
            except ValueError:
                raise unauthorized("invalid_token", "The token could not be verified.") from None
            claims = verified_claims(
                token,
                key,
                str(alg),
                issuer=ext.issuer,
                audience=ext.audience,
                now=now,
                subject=ext.claims.user_id,
            )
            principal = self._principal(claims, ext.issuer, ext.claims)
        else:
            raise unauthorized("invalid_token", "The token's signing algorithm is not accepted.")
        if self.access is not None:
            self.access.check(principal.user_id, principal.issued_at)
        self.cache.put(token, principal, exp=int(claims["exp"]), now=now)
        return principal

    @staticmethod
    def _principal(
        claims: dict[str, Any], external_issuer: str | None, names: ClaimNames
    ) -> Principal:
        sub = claims.get(names.user_id)
        if not isinstance(sub, str) or not sub.strip() or len(sub) > 256:
            raise unauthorized("invalid_token", "The token's subject is not valid.")
        name = claims.get(names.name) or claims.get("preferred_username") or ""
        email = claims.get(names.email) or ""
        user_id = external_user_id(external_issuer, sub) if external_issuer else sub
        iat = claims.get("iat")
        issued_at = float(iat) if isinstance(iat, int | float) else 0.0
        return Principal(user_id, str(name)[:200], str(email)[:320], issued_at)


def not_authenticated() -> ServiceError:
    return unauthorized("not_authenticated", "A bearer token is required.")
