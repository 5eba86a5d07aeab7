"""Password hashing: argon2id, off the event loop, in its own small thread pool."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error, InvalidHashError

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
