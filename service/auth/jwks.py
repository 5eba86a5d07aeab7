"""An identity provider's signing keys, read from its JWKS URL and kept in memory.

Keys are fetched when a token names a `kid` the cache does not hold, at most once per
`min_interval_s` (60 s): a flood of tokens with made-up key ids costs the provider one request a
minute. A failed fetch counts as an attempt too, and leaves the keys already known in place, so
an outage of the provider only affects tokens signed with a key Warden has not seen yet (they
get a 503 `identity_provider_unavailable` until a fetch succeeds). The fetch runs in a worker
thread (urllib, bounded time and size), never on the event loop.

Only RS256 (RSA keys) and ES256 (EC keys on P-256) are accepted; each key carries the one
algorithm it may verify, so a token cannot choose another (no `none`, no HS256 with a public key).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import jwt

log = logging.getLogger("warden.auth.jwks")
ALGORITHMS = ("RS256", "ES256")
MAX_JWKS_BYTES = 1024 * 1024
Fetch = Callable[[str], Awaitable[bytes]]


class UnknownSigningKey(Exception):
    """No cached key matches the token's `kid` (a refresh may find it)."""


@dataclass(frozen=True)
class SigningKey:
    algorithm: str  # the only algorithm this key verifies
    key: Any  # a cryptography public key


def _algorithm_of(jwk: Mapping[str, Any]) -> str | None:
    """The accepted algorithm a JWK is for, or None (other types, curves, uses, algorithms)."""
    if jwk.get("use", "sig") != "sig":
        return None
    kty, declared = jwk.get("kty"), jwk.get("alg")
    if kty == "RSA":
        implied = "RS256"
    elif kty == "EC" and jwk.get("crv") == "P-256":
        implied = "ES256"
    else:
        return None
    return implied if declared in (None, implied) else None


def parse_jwks(raw: bytes) -> dict[str | None, SigningKey]:
    """`kid -> SigningKey` for the usable keys of a JWKS document (unusable ones are skipped);
    raises ValueError when the document is not a JWKS."""
    document = json.loads(raw)
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ValueError("not a JWKS document (no 'keys' list)")
    keys: dict[str | None, SigningKey] = {}
    for entry in entries:
        if not isinstance(entry, dict) or (algorithm := _algorithm_of(entry)) is None:
            continue
        try:
            key = jwt.PyJWK(entry, algorithm=algorithm).key
        except (jwt.PyJWKError, jwt.InvalidKeyError, ValueError, TypeError):
            continue
        kid = entry.get("kid")
        keys[kid if isinstance(kid, str) else None] = SigningKey(algorithm, key)
    return keys


async def fetch_url(url: str, timeout_s: float = 5.0) -> bytes:
    """GET `url` in a worker thread: at most MAX_JWKS_BYTES, within `timeout_s`."""

    def get() -> bytes:
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310
            data: bytes = response.read(MAX_JWKS_BYTES + 1)
        if len(data) > MAX_JWKS_BYTES:
            raise ValueError("JWKS document too large")
        return data

    return await asyncio.to_thread(get)


class JwksKeys:
    """The provider's keys by `kid`. `key()` reads the cache; `refresh()` fetches when due."""

    def __init__(
        self,
        url: str,
        *,
        fetch: Fetch = fetch_url,
        clock: Callable[[], float] = time.monotonic,
        min_interval_s: float = 60.0,
    ) -> None:
        if not url.startswith(("https://", "http://")):
            raise ValueError("the JWKS URL must be an http(s) URL")
        self.url = url
        self._fetch = fetch
        self._clock = clock
        self.min_interval_s = min_interval_s
        self._keys: dict[str | None, SigningKey] = {}
        self._fetched_at: float | None = None
        self.fetches = 0
        self.unavailable = False  # the last fetch failed
        self._lock = asyncio.Lock()

    def key(self, kid: str | None, algorithm: str) -> Any:
        """The key for `kid` (a token without one: the only key of its algorithm).

        Raises UnknownSigningKey when none is cached, ValueError when the key is for another
        algorithm than the token's."""
        found = self._keys.get(kid) if kid is not None else self._only_key(algorithm)
        if found is None:
            raise UnknownSigningKey(kid)
        if found.algorithm != algorithm:
            raise ValueError("the token's algorithm is not its key's")
        return found.key

    def _only_key(self, algorithm: str) -> SigningKey | None:
        matching = [k for k in self._keys.values() if k.algorithm == algorithm]
        return matching[0] if len(matching) == 1 else None

    async def refresh(self) -> bool:
        """Fetches the keys unless a fetch was made less than `min_interval_s` ago.
        True when new keys were loaded; never raises (a failure is logged and kept in
        `unavailable`)."""
        async with self._lock:  # concurrent callers share one fetch
            now = self._clock()
            if self._fetched_at is not None and now - self._fetched_at < self.min_interval_s:
                return False
            self._fetched_at = now
            self.fetches += 1
            try:
                keys = parse_jwks(await self._fetch(self.url))
            except Exception as exc:  # noqa: BLE001 - any failure: keep the keys we have
                self.unavailable = True
                log.warning("fetching the JWKS failed: %s", type(exc).__name__)
                return False
            self._keys, self.unavailable = keys, False
            return True
