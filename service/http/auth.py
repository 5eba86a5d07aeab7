"""Own accounts: register and log in. Neither answer reveals whether an account exists.

Register answers 202 with the same body for a new and an already registered email (the
existing account is left untouched); the password is hashed in both cases so the timing
matches too. Login answers the same 401 `invalid_credentials` for an unknown email and a wrong
password, and checks unknown emails against a dummy hash.

Both routes are throttled per client IP, and failed logins per IP and per account
(service/auth_throttle.py). Beside an external identity provider both are off unless
WARDEN_ALLOW_LOCAL_ACCOUNTS is true.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request, status
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipelines.ports import AlreadyExists, StoreUnavailable, UserRecord
from service.container import Container
from service.errors import ServiceError, responses
from service.http.deps import ContainerDep

router = APIRouter(prefix="/v1/auth", tags=["auth"])

# Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is not checked.
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
MAX_USERNAME_CHARS = 254
REGISTER_ACCEPTED = (
    "If this email can be registered, the account is ready: request a token at POST /v1/auth/token."
)


class RegisterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    email: str = Field(max_length=254)
    password: str = Field(min_length=8, max_length=128)
    name: str = Field(min_length=1, max_length=100)

    @field_validator("email")
    @classmethod
    def _valid_email(cls, value: str) -> str:
        if not _EMAIL.fullmatch(value):
            raise ValueError("not a valid email address")  # never echo the value
        return value.lower()


class RegisterAccepted(BaseModel):
    status: str = "accepted"
    detail: str = REGISTER_ACCEPTED


class TokenResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _local_accounts_only(container: Container) -> None:
    if not container.settings.local_accounts:
        raise ServiceError(
            "local_accounts_disabled",
            "Accounts are managed by the identity provider; use its tokens.",
            403,
        )


@router.post(
    "/register",
    status_code=status.HTTP_202_ACCEPTED,
    responses=responses(403, 413, 422, 429, 503),
)
async def register_user(
    body: RegisterRequest, request: Request, container: ContainerDep
) -> RegisterAccepted:
    _local_accounts_only(container)
    if not container.settings.allow_signup:
        raise ServiceError("signup_disabled", "Self-registration is switched off.", 403)
    container.auth_throttle.admit(_client_ip(request))
    password_hash = await container.passwords.hash(body.password)
    user = UserRecord(
        id=uuid.uuid4().hex,
        email=body.email,
        name=body.name,
        password_hash=password_hash,
        created_at=datetime.now(UTC),
    )
    try:
        await container.store.create_user(user)
    except AlreadyExists:
        pass  # same answer as a new account: existence is not revealed
    except StoreUnavailable:
        raise ServiceError(
            "store_unavailable", "Accounts are unavailable; retry later.", 503
        ) from None
    return RegisterAccepted()


@router.post("/token", responses=responses(401, 403, 413, 422, 429, 503))
async def issue_token(
    form: Annotated[OAuth2PasswordRequestForm, Depends()],
    request: Request,
    container: ContainerDep,
) -> TokenResponse:
    _local_accounts_only(container)
    if len(form.username) > MAX_USERNAME_CHARS:  # before any throttle keeps it
        raise ServiceError("invalid_request", "The username is too long.", 422)
    email = form.username.strip().lower()
    ip = _client_ip(request)
    throttle = container.auth_throttle
    throttle.admit(ip)
    await throttle.before_login(ip, email)
    try:
        user = await container.store.user_by_email(email)
    except StoreUnavailable:
        raise ServiceError(
            "store_unavailable", "Accounts are unavailable; retry later.", 503
        ) from None
    ok = await container.passwords.verify(form.password, user.password_hash if user else None)
    if user is None or not ok:
        throttle.failed_login(ip, email)
        raise ServiceError(
            "invalid_credentials",
            "Incorrect email or password.",
            401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    return TokenResponse(
        access_token=container.tokens.issue(user),
        expires_in=int(container.tokens.ttl.total_seconds()),
    )
