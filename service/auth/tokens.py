"""Password hashing (argon2id) and bearer tokens (own HS256, or an identity provider's RS256).

Verified tokens are cached until their `exp` (service/token_cache.py): a token's signature is
checked once, not on every request.

External subjects are namespaced: a provider's token maps to user_id
"ext:" + sha256(issuer + "|" + sub)[:32 hex], which can never equal a local id (32 hex, no colon),
so an external `sub` cannot claim a local user's history or documents."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error, InvalidHashError
from jwt.types import Options

from pipelines.ports import UserRecord
from service.auth.token_cache import DEFAULT_MAX_ENTRIES, VerifiedTokenCache
from service.errors import ServiceError

_BEARER = {"WWW-Authenticate": "Bearer"}


HASHING_WORKERS = 2  # argon2id at m=64 MiB takes ~0.3 s: a flood queues here, not in chats


class Passwords:
    """argon2id hashing off the event loop, in its own small thread pool (not the default
    executor the rest of the service shares). Unknown accounts are checked against a dummy
    hash, so a wrong email costs the same time as a wrong password."""

    def __init__(
        self, hasher: PasswordHasher | None = None, workers: int = HASHING_WORKERS
    ) -> None:
        self._hasher = hasher or PasswordHasher()
        self._dummy = self._hasher.hash(secrets.token_hex(16))
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")

    async def hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, self._hasher.hash, password)

    async def verify(self, password: str, password_hash: str | None) -> bool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, self._verify, password, password_hash)

    def _verify(self, password: str, password_hash: str | None) -> bool:
        try:
            ok = self._hasher.verify(password_hash or self._dummy, password)
        except (Argon2Error, InvalidHashError):
            return False
        return ok and password_hash is not None


@dataclass(frozen=True)
class Principal:
    """Who is calling, from a verified token only. `user_id` is the token's opaque `sub`."""

    user_id: str
    name: str
    email: str


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


class _ClockedJWT(jwt.PyJWT):
    """PyJWT whose time checks (iat, nbf, exp) read the service's clock, the one the token
    cache reads too, so both always agree on whether a token has expired."""

    def __init__(self, now: Callable[[], float]) -> None:
        super().__init__()
        self._now = now

    def _validate_iat(self, payload: dict[str, Any], now: float, leeway: float) -> None:
        super()._validate_iat(payload, self._now(), leeway)

    def _validate_nbf(self, payload: dict[str, Any], now: float, leeway: float) -> None:
        super()._validate_nbf(payload, self._now(), leeway)

    def _validate_exp(self, payload: dict[str, Any], now: float, leeway: float) -> None:
        super()._validate_exp(payload, self._now(), leeway)


def _unauthorized(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, 401, headers=_BEARER)


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
    ) -> None:
        self._secret = secret
        self.ttl = ttl
        self.issuer = issuer
        self._external = external
        self.local = local
        self._external_key = external.key() if external else None
        self._clock = clock
        self._jwt = _ClockedJWT(self._now)
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
            return cached
        try:
            alg = jwt.get_unverified_header(token).get("alg")
        except jwt.InvalidTokenError:
            raise _unauthorized("invalid_token", "The token is malformed.") from None
        if alg == "HS256" and self.local:
            claims = self._decode(token, self._secret, "HS256", self.issuer, None)
            principal = self._principal(claims, None)
        elif alg == "RS256" and self._external is not None:
            ext = self._external
            claims = self._decode(token, self._external_key, "RS256", ext.issuer, ext.audience)
            principal = self._principal(claims, ext.issuer)
        else:
            raise _unauthorized("invalid_token", "The token's signing algorithm is not accepted.")
        self.cache.put(token, principal, exp=int(claims["exp"]), now=now)
        return principal

    def _decode(
        self, token: str, key: Any, alg: str, issuer: str | None, audience: str | None
    ) -> dict[str, Any]:
        required = ["sub", "exp", "iss"] + (["aud"] if audience else [])
        options: Options = {"require": required, "verify_aud": bool(audience)}
        try:
            return self._jwt.decode(
                token,
                key,
                algorithms=[alg],
                issuer=issuer,
                audience=audience,
                options=options,
                leeway=timedelta(seconds=30),
            )
        except jwt.ExpiredSignatureError:
            raise _unauthorized("token_expired", "The token has expired.") from None
        except jwt.MissingRequiredClaimError as exc:
            raise _unauthorized(
                "invalid_token", f"The token lacks the '{exc.claim}' claim."
            ) from None
        except jwt.InvalidTokenError:
            raise _unauthorized("invalid_token", "The token could not be verified.") from None

    @staticmethod
    def _principal(claims: dict[str, Any], external_issuer: str | None) -> Principal:
        sub = claims.get("sub")
        if not isinstance(sub, str) or not sub.strip() or len(sub) > 256:
            raise _unauthorized("invalid_token", "The token's subject is not valid.")
        name = claims.get("name") or claims.get("preferred_username") or ""
        email = claims.get("email") or ""
        user_id = external_user_id(external_issuer, sub) if external_issuer else sub
        return Principal(user_id=user_id, name=str(name)[:200], email=str(email)[:320])


def not_authenticated() -> ServiceError:
    return _unauthorized("not_authenticated", "A bearer token is required.")
