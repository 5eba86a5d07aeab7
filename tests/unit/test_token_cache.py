"""The verified-token cache: never past a token's exp, bounded, and only verified tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
import pytest

from pipelines.ports import UserRecord
from service.auth.token_cache import VerifiedTokenCache
from service.auth.tokens import TokenService
from service.errors import ServiceError

SECRET = "unit-secret-" + "z" * 40
T0 = datetime(2001, 1, 1, tzinfo=UTC)  # far in the past: only the injected clock can accept
TTL = timedelta(minutes=10)
LEEWAY = timedelta(seconds=30)  # TokenService's


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _user(n: int = 1) -> UserRecord:
    return UserRecord(f"u-{n}", f"u{n}@example.org", f"User {n}", "", T0)


def _service(clock: Clock, cache_size: int = 100) -> TokenService:
    return TokenService(SECRET, ttl=TTL, clock=clock, cache_size=cache_size)


def _code(service: TokenService, token: str) -> str:
    with pytest.raises(ServiceError) as raised:
        service.verify(token)
    assert raised.value.status == 401
    return raised.value.code


def test_a_verified_token_is_cached_and_served_from_the_cache() -> None:
    service = _service(Clock())
    token = service.issue(_user())

    first = service.verify(token)
    assert len(service.cache) == 1
    assert service.verify(token) is first  # the cached principal, not a new decode


def test_a_cached_token_is_refused_once_expired() -> None:
    clock = Clock()
    service = _service(clock)
    token = service.issue(_user())
    assert service.verify(token).user_id == "u-1"

    clock.now = T0 + TTL + LEEWAY + timedelta(seconds=1)
    assert _code(service, token) == "token_expired"
    assert len(service.cache) == 0


def test_past_exp_the_cache_is_not_used_and_the_leeway_is_the_verifiers() -> None:
    """Within the verifier's 30 s leeway the token is still accepted, by full verification,
    and it is not cached again: its cached life ended at exp."""
    clock = Clock()
    service = _service(clock)
    token = service.issue(_user())
    service.verify(token)

    clock.now = T0 + TTL  # exactly exp
    assert service.verify(token).user_id == "u-1"
    assert len(service.cache) == 0
    clock.now = T0 + TTL + LEEWAY
    assert _code(service, token) == "token_expired"


def test_time_checks_read_the_service_clock() -> None:
    """PyJWT's exp and iat checks follow the injected clock (T0 is long past in real time)."""
    clock = Clock()
    service = _service(clock)
    token = service.issue(_user())
    assert service.verify(token).user_id == "u-1"

    clock.now = T0 - timedelta(hours=1)  # issued "in the future": iat not yet valid
    fresh = _service(clock)
    assert _code(fresh, token) == "invalid_token"


def test_the_cache_is_bounded_least_recently_used_first() -> None:
    service = _service(Clock(), cache_size=3)
    tokens = [service.issue(_user(n)) for n in range(5)]
    for token in tokens:
        service.verify(token)
    assert len(service.cache) == 3

    service.verify(tokens[2])  # used again: now the most recent
    service.verify(tokens[0])  # evicted earlier: verified again, evicts tokens[3]
    assert len(service.cache) == 3
    assert service.cache.get(tokens[2], T0.timestamp()) is not None
    assert service.cache.get(tokens[3], T0.timestamp()) is None


def test_forged_and_invalid_tokens_are_never_cached() -> None:
    clock = Clock()
    service = _service(clock)
    good = service.issue(_user())
    service.verify(good)
    claims = jwt.decode(good, options={"verify_signature": False})
    head, signature = good.rsplit(".", 1)
    first = "B" if signature[0] == "A" else "A"  # a first character carries 6 whole bits
    forged = [
        jwt.encode(claims, "another-secret-" + "y" * 40, algorithm="HS256"),  # other key
        f"{head}.{first}{signature[1:]}",  # tampered signature
        jwt.encode({**claims, "sub": "u-2"}, "wrong-" + "k" * 40, algorithm="HS256"),
        jwt.encode(claims, "", algorithm="none"),
        jwt.encode({**claims, "sub": ""}, SECRET, algorithm="HS256"),  # signed, bad subject
    ]
    for token in forged:
        for _ in range(2):  # a second try is verified again, not served from the cache
            assert _code(service, token) == "invalid_token"
    assert len(service.cache) == 1  # only the good token


def test_cache_size_zero_turns_caching_off() -> None:
    service = _service(Clock(), cache_size=0)
    token = service.issue(_user())
    assert service.verify(token).user_id == service.verify(token).user_id == "u-1"
    assert len(service.cache) == 0


def test_the_cache_forgets_an_entry_at_its_exp() -> None:
    cache: VerifiedTokenCache[str] = VerifiedTokenCache(max_entries=2)
    cache.put("t", "value", exp=100.0, now=10.0)
    cache.put("expired", "value", exp=100.0, now=100.0)  # not stored

    assert cache.get("t", now=99.9) == "value"
    assert cache.get("t", now=100.0) is None
    assert len(cache) == 0
