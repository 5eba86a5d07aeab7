"""The ports behind a user's own data and the operator's account commands: reading and
erasing one user's records, access rules (revoked tokens, disabled accounts), and the
housekeeping that makes an erasure physical."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from pipelines.ports.store import ChatRecord, UserRecord


def access_key(user_id: str) -> str:
    """How an access rule names its user: a hash, so an erased user's id is not kept."""
    return hashlib.sha256(b"warden-access|" + user_id.encode()).hexdigest()


@dataclass(frozen=True)
class AccessRule:
    """Refuses a user's tokens issued up to `revoked_before`, or all of them when disabled."""

    key: str  # access_key(user_id)
    revoked_before: datetime | None = None
    disabled: bool = False


@runtime_checkable
class AccountData(Protocol):
    async def user_by_id(self, user_id: str) -> UserRecord | None: ...

    async def list_users(self) -> list[UserRecord]: ...

    async def delete_user(self, user_id: str) -> bool: ...

    async def access_rules(self) -> list[AccessRule]: ...

    async def put_access_rule(self, rule: AccessRule) -> None: ...

    async def erase_history(self, user_id: str) -> int:
        """Deletes every stored history message of the user; how many."""
        ...

    async def erase_documents(self, user_id: str) -> list[str]:
        """Deletes every upload record of the user (expired ones too); their ids."""
        ...

    async def history_users(self) -> list[str]: ...

    async def history_records(self, user_id: str) -> list[ChatRecord]:
        """All of the user's stored messages, as stored, oldest first."""
        ...

    async def rewrite_history(self, user_id: str, records: Sequence[ChatRecord]) -> None:
        """Replaces stored messages (same turn and role) by these."""
        ...

    async def compact(self) -> None:
        """Makes deletions physical where the store keeps old bytes (embedded: rebuilds the
        file and empties its write-ahead log); a no-op for a server."""
        ...


@runtime_checkable
class UserVectors(Protocol):
    async def delete_user_documents(self, user_id: str) -> None:
        """Removes every temporary point the user uploaded, with or without a record."""
        ...

    async def compact(self) -> None:
        """Makes deletions physical (embedded: vacuums segments, rolls the log over)."""
        ...
