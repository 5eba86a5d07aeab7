"""Throttles for the account routes (register, login), apart from the per-user chat limit.

- Requests per client IP on both routes (`auth_requests_per_ip_per_minute`): caps the
  argon2 work one address can ask for.
- FAILED logins per client IP (`login_attempts_per_minute`): over it, 429 before any hashing.
  Successful logins are not counted, so a user who types the password right is never refused.
- FAILED logins per account, from all IPs (`login_failures_per_account_per_minute`, higher):
  over it, each further attempt on that account waits `ACCOUNT_DELAY_S` first, but is never
  refused. The trade: refusing would let anyone lock a victim out from another address; a delay
  only slows. A many-IP attacker is therefore held back by each IP's budget, the delay and the
  small hashing pool, not stopped; stopping credential stuffing belongs to an edge proxy or WAF.

Keys are short hashes (an account key never holds the submitted username). The client IP is
the socket peer: behind a proxy, run uvicorn with --forwarded-allow-ips set to the proxy so it
is the real client's address (otherwise all callers share one budget).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable

from service.errors import ServiceError
from service.rate_limit import SlidingWindowLimiter, retry_after_header

ACCOUNT_DELAY_S = 1.0


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _too_many(wait_s: float) -> ServiceError:
    return ServiceError(
        "rate_limited", "Too many attempts; retry later.", 429, retry_after_header(wait_s)
    )


class AuthThrottle:
    def __init__(
        self,
        *,
        requests_per_ip: int,
        failures_per_ip: int,
        failures_per_account: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.requests = SlidingWindowLimiter(requests_per_ip, clock=clock)
        self.ip_failures = SlidingWindowLimiter(failures_per_ip, clock=clock)
        self.account_failures = SlidingWindowLimiter(failures_per_account, clock=clock)
        self._sleep = sleep

    def admit(self, ip: str) -> None:
        """Counts one register/login request from `ip`; 429 when over its budget."""
        wait_s = self.requests.check(ip)
        if wait_s is not None:
            raise _too_many(wait_s)

    async def before_login(self, ip: str, account: str) -> None:
        """429 when this IP failed too often; a delay when this account is being guessed."""
        wait_s = self.ip_failures.wait(ip)
        if wait_s is not None:
            raise _too_many(wait_s)
        if self.account_failures.wait(_digest(account)) is not None:
            await self._sleep(ACCOUNT_DELAY_S)

    def failed_login(self, ip: str, account: str) -> None:
        self.ip_failures.record(ip)
        self.account_failures.record(_digest(account))
