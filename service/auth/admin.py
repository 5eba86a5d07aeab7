"""UserAdmin: the operator's account commands (`warden users add|disable|enable|list|revoke`),
for deployments with sign-up switched off, and for a leaked token."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from pipelines.ports import AccountData, AlreadyExists, UserRecord, UserStore
from service.auth.access import AccessRules
from service.auth.passwords import Passwords

MIN_PASSWORD_CHARS = 8  # as POST /v1/auth/register


class AdminError(Exception):
    """The command cannot be done (unknown user, taken email, short password)."""


@dataclass(frozen=True)
class UserView:
    id: str
    email: str
    name: str
    created_at: datetime
    disabled: bool
    revoked_before: datetime | None

    def as_json(self) -> dict[str, object]:
        revoked = self.revoked_before.isoformat() if self.revoked_before else None
        return {
            "id": self.id,
            "email": self.email,
            "name": self.name,
            "created_at": self.created_at.isoformat(),
            "disabled": self.disabled,
            "revoked_before": revoked,
        }


class UserAdmin:
    def __init__(
        self,
        users: UserStore,
        data: AccountData,
        access: AccessRules,
        passwords: Passwords,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._users = users
        self._data = data
        self._access = access
        self._passwords = passwords
        self._clock = clock

    async def add(self, email: str, name: str, password: str) -> UserRecord:
        email = email.strip().lower()
        if "@" not in email or len(email) > 254:
            raise AdminError("not an e-mail address")
        if not MIN_PASSWORD_CHARS <= len(password) <= 128:
            raise AdminError(f"the password must be {MIN_PASSWORD_CHARS} to 128 characters")
        hashed = await self._passwords.hash(password)
        user = UserRecord(uuid.uuid4().hex, email, name.strip(), hashed, self._clock())
        try:
            await self._users.create_user(user)
        except AlreadyExists:
            raise AdminError(f"an account for {email} exists") from None
        return user

    async def _user(self, email: str) -> UserRecord:
        user = await self._users.user_by_email(email.strip().lower())
        if user is None:
            raise AdminError(f"no account for {email.strip().lower()}")
        return user

    async def set_disabled(self, email: str, disabled: bool) -> UserView:
        user = await self._user(email)
        await self._access.set_disabled(user.id, disabled)
        return self._view(user)

    async def revoke(self, email: str) -> UserView:
        user = await self._user(email)
        await self._access.revoke(user.id)
        return self._view(user)

    async def list(self) -> list[UserView]:
        return [self._view(user) for user in await self._data.list_users()]

    def _view(self, user: UserRecord) -> UserView:
        rule = self._access.rule_for(user.id)
        return UserView(
            user.id,
            user.email,
            user.name,
            user.created_at,
            disabled=bool(rule and rule.disabled),
            revoked_before=rule.revoked_before if rule else None,
        )
