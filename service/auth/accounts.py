"""AccountService: register and log in with own accounts. Neither answer reveals whether an
account exists.

Register gives the same answer for a new and an already registered email (the existing
account is left untouched); the password is hashed in both cases so the timing matches too.
Login refuses an unknown email and a wrong password alike (`invalid_credentials`) and checks
unknown emails against a dummy hash. Both are throttled per client, and failed logins per
client and per account (service/auth/throttle.py). Beside an external identity provider
both are off unless WARDEN_ALLOW_LOCAL_ACCOUNTS is true.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from pipelines.ports import AlreadyExists, StoreUnavailable, UserRecord, UserStore
from service.auth.access import AccessRules
from service.auth.passwords import Passwords
from service.auth.throttle import AuthThrottle
from service.auth.tokens import TokenService
from service.errors import ServiceError

MAX_USERNAME_CHARS = 254


@dataclass(frozen=True)
class IssuedToken:
    access_token: str
    expires_in: int  # seconds


def _unavailable() -> ServiceError:
    return ServiceError("store_unavailable", "Accounts are unavailable; retry later.", 503)


class AccountService:
    def __init__(
        self,
        users: UserStore,
        passwords: Passwords,
        tokens: TokenService,
        throttle: AuthThrottle,
        *,
        local_accounts: bool,
        allow_signup: bool,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        access: AccessRules | None = None,
    ) -> None:
        self._access = access  # a disabled account cannot log in
        self.throttle = throttle
        self._users = users
        self._passwords = passwords
        self._tokens = tokens
        self._local_accounts = local_accounts
        self._allow_signup = allow_signup
        self._clock = clock

    async def register(self, email: str, password: str, name: str, *, client: str) -> None:
        """Creates the account unless it exists; the caller cannot tell which happened."""
        self._local_only()
        if not self._allow_signup:
            raise ServiceError("signup_disabled", "Self-registration is switched off.", 403)
        self.throttle.admit(client)
        password_hash = await self._passwords.hash(password)
        user = UserRecord(uuid.uuid4().hex, email, name, password_hash, self._clock())
        try:
            await self._users.create_user(user)
        except AlreadyExists:
            pass  # same answer as a new account: existence is not revealed
        except StoreUnavailable:
            raise _unavailable() from None

    async def login(self, username: str, password: str, *, client: str) -> IssuedToken:
        """A bearer token for the account; 401 `invalid_credentials` for any failure."""
        self._local_only()
        if len(username) > MAX_USERNAME_CHARS:  # before any throttle keeps it
            raise ServiceError("invalid_request", "The username is too long.", 422)
        email = username.strip().lower()
        self.throttle.admit(client)
        await self.throttle.before_login(client, email)
        try:
            user = await self._users.user_by_email(email)
        except StoreUnavailable:
            raise _unavailable() from None
        ok = await self._passwords.verify(password, user.password_hash if user else None)
        if user is not None and self._access is not None and self._access.disabled(user.id):
            ok = False  # the same answer as a wrong password
        if user is None or not ok:
            self.throttle.failed_login(client, email)
            raise ServiceError(
                "invalid_credentials",
                "Incorrect email or password.",
                401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        return IssuedToken(self._tokens.issue(user), int(self._tokens.ttl.total_seconds()))

    def _local_only(self) -> None:
        if not self._local_accounts:
            raise ServiceError(
                "local_accounts_disabled",
                "Accounts are managed by the identity provider; use its tokens.",
                403,
            )
