"""Small pure pieces of the service edge: rate window, password checks, settings, lock text."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from pydantic import ValidationError

from service.auth.passwords import Passwords
from service.process_lock import DataDirBusy, LockHolder
from service.rate_limit import SlidingWindowLimiter, retry_after_header
from service.settings import Settings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_sliding_window_admits_limit_per_minute_then_reopens() -> None:
    clock = Clock()
    limiter = SlidingWindowLimiter(3, clock=clock)
    assert [limiter.check("a") for _ in range(3)] == [None, None, None]
    assert limiter.check("a") == pytest.approx(60.0)
    assert limiter.check("b") is None  # per key
    clock.now += 30
    assert limiter.check("a") == pytest.approx(30.0)
    clock.now += 30.001
    assert limiter.check("a") is None  # the oldest hit left the window
    assert retry_after_header(0.2) == {"Retry-After": "1"}
    assert retry_after_header(29.1) == {"Retry-After": "30"}


def test_limit_zero_is_off_and_idle_users_are_forgotten() -> None:
    clock = Clock()
    assert all(SlidingWindowLimiter(0, clock=clock).check("a") is None for _ in range(100))
    limiter = SlidingWindowLimiter(1, clock=clock)
    for user in range(50):
        limiter.check(f"user-{user}")
    clock.now += 61
    limiter.check("someone")
    assert limiter.tracked_keys() == {"someone"}


class CountingHasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified.append(str(hash))
        return super().verify(hash, password)


async def test_unknown_accounts_are_checked_against_a_dummy_hash() -> None:
    hasher = CountingHasher()
    passwords = Passwords(hasher)
    real = await passwords.hash("right password")

    assert await passwords.verify("right password", real) is True
    assert await passwords.verify("wrong password", real) is False
    assert await passwords.verify("right password", None) is False
    assert await passwords.verify("anything", "not-a-hash") is False
    assert len(hasher.verified) == 4  # the unknown account cost a full verification too
    assert hasher.verified[2] not in (real, "")


def _settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_settings_defaults_and_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WARDEN_DATA_DIR", "WARDEN_JWT_SECRET", "WARDEN_QDRANT_URL", "WARDEN_MONGODB_URI"):
        monkeypatch.delenv(name, raising=False)
    settings = _settings()
    assert settings.data_dir == Path("data") and settings.jwt_secret is None
    assert settings.allow_signup and settings.rate_limit_per_minute == 60
    assert settings.confidence_threshold == 40 and settings.upload_ttl_hours == 24
    assert settings.embedded_stores and settings.llm_base_url is None
    for bad in ({"jwt_ttl_minutes": 0}, {"jwt_ttl_minutes": 100_000}, {"jwt_secret": "short"}):
        with pytest.raises(ValidationError):
            _settings(**bad)


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARDEN_ALLOW_SIGNUP", "false")
    monkeypatch.setenv("WARDEN_RATE_LIMIT_PER_MINUTE", "0")
    monkeypatch.setenv("WARDEN_QDRANT_URL", "http://127.0.0.1:6333")
    monkeypatch.setenv("WARDEN_MONGODB_URI", "mongodb://127.0.0.1:27017/warden")
    monkeypatch.setenv("LANGFUSE_PUBLIC_KEY", "pk")
    settings = _settings()
    assert not settings.allow_signup and settings.rate_limit_per_minute == 0
    assert not settings.embedded_stores
    assert settings.langfuse_public_key is not None and settings.langfuse_secret_key is None


def test_busy_messages_say_what_to_do() -> None:
    serve = DataDirBusy(Path("data"), LockHolder(42, "serve", "http://127.0.0.1:8000"))
    ingest = DataDirBusy(Path("data"), LockHolder(7, "ingest", None))
    unknown = DataDirBusy(Path("data"), LockHolder(None, None, None))
    assert serve.message() == (
        "the Warden service (pid 42, http://127.0.0.1:8000) holds data/; stop it first, "
        "or send questions to its API: POST /v1/chat"
    )
    assert "'warden ingest' (pid 7) is using data/" in ingest.message()
    assert "another Warden process" in unknown.message()
