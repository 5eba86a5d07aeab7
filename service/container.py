"""Container: what `bootstrap.build_container` built, held together for the edges.

The edges reach the application services (`chat`, `documents`) and the auth parts through
it; only `bootstrap` knows which adapters stand behind the ports.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pipelines.deps import PipelineConfig, PipelineDeps
from pipelines.ports import Store
from service.auth.access import AccessRules
from service.auth.accounts import AccountService
from service.auth.tokens import TokenService
from service.chat import ChatService
from service.documents.service import DocumentService
from service.idempotent_chat import IdempotentChats
from service.privacy.me import MeService
from service.rate_limit import SlidingWindowLimiter
from service.settings import Settings

log = logging.getLogger("warden.container")
Closer = Callable[[], Awaitable[Any]]


@dataclass(frozen=True)
class Probe:
    """One readiness check: `check()` raises when the dependency cannot serve."""

    check: Callable[[], Awaitable[Any]]
    required: bool = True


@dataclass
class Container:
    settings: Settings
    deps: PipelineDeps  # metered ports, as the pipeline sees them
    chat: ChatService
    idempotent: IdempotentChats  # the chat, for requests with an Idempotency-Key
    documents: DocumentService
    accounts: AccountService  # register and log in; its `throttle` guards both
    store: Store  # metered, through the history outbox: users, documents, history
    replay_outbox: Callable[[], Awaitable[int]]  # stores turns queued while the store was down
    tokens: TokenService  # verifies every request's bearer token
    limiter: SlidingWindowLimiter
    probes: dict[str, Probe]
    closers: list[tuple[str, Closer]] = field(default_factory=list)
    closed: bool = False
    access: AccessRules = field(default_factory=lambda: AccessRules(None))  # revoked, disabled
    me: MeService | None = None  # a user's own data (/v1/me)

    @property
    def config(self) -> PipelineConfig:
        return self.deps.config

    async def close(self) -> None:
        """Flushes the tracer and releases stores (each step bounded; never raises)."""
        if self.closed:
            return
        self.closed = True
        timeout_s = self.settings.shutdown_flush_timeout_s
        for name, closer in reversed(self.closers):
            try:
                async with asyncio.timeout(timeout_s + 1.0):
                    await closer()
            except Exception as exc:  # noqa: BLE001 - shutdown carries on regardless
                log.warning("closing %s failed: %s", name, type(exc).__name__)
