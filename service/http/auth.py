"""POST /v1/auth/register and /v1/auth/token over AccountService (service/auth/accounts.py):
202 with the same body for a new and an existing account; 401 `invalid_credentials` for any
failed login; throttled per client IP."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, Request, status
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

from service.errors import responses
from service.http import patterns
from service.http.deps import ContainerDep

router = APIRouter(prefix="/v1/auth", tags=["auth"])

# Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is not checked.
EMAIL_FORM = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
REGISTER_ACCEPTED = (
    "If this email can be registered, the account is ready: request a token at POST /v1/auth/token."
)


_MAX_AS_SENT = {"email": 254, "password": 128, "name": 100}
_PASSWORD_LONG_ENOUGH = re.compile(patterns.at_least_stripped(8))


class RegisterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    # White space around a value is stripped before the checks but the maximum lengths,
    # which count the value as sent; the patterns (documentation only, the checks are the
    # lengths and EMAIL_FORM) say the same of the value as sent.
    email: str = Field(max_length=254, json_schema_extra={"pattern": patterns.EMAIL})
    # kept as sent: login compares it as typed, spaces at its ends included
    password: Annotated[str, StringConstraints(strip_whitespace=False)] = Field(
        min_length=8, max_length=128, json_schema_extra={"pattern": patterns.at_least_stripped(8)}
    )
    name: str = Field(
        min_length=1, max_length=100, json_schema_extra={"pattern": patterns.NOT_STRIPPED}
    )

    @field_validator("email", "password", "name", mode="before")
    @classmethod
    def _at_most_as_sent(cls, value: object, info: ValidationInfo) -> object:
        limit = _MAX_AS_SENT[info.field_name or ""]
        if isinstance(value, str) and len(value) > limit:
            raise ValueError(f"at most {limit} characters")
        return value

    @field_validator("password")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        if not _PASSWORD_LONG_ENOUGH.search(value):  # the schema's pattern, read by Python
            raise ValueError("at least 8 characters besides white space")
        return value

    @field_validator("email")
    @classmethod
    def _valid_email(cls, value: str) -> str:
        if not EMAIL_FORM.fullmatch(value):
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


@router.post(
    "/register",
    status_code=status.HTTP_202_ACCEPTED,
    responses=responses(403, 413, 422, 429, 503),
)
async def register_user(
    body: RegisterRequest, request: Request, container: ContainerDep
) -> RegisterAccepted:
    await container.accounts.register(
        body.email, body.password, body.name, client=_client_ip(request)
    )
    return RegisterAccepted()


@router.post("/token", responses=responses(401, 403, 413, 422, 429, 503))
async def issue_token(
    form: Annotated[OAuth2PasswordRequestForm, Depends()],
    request: Request,
    container: ContainerDep,
) -> TokenResponse:
    issued = await container.accounts.login(
        form.username, form.password, client=_client_ip(request)
    )
    return TokenResponse(access_token=issued.access_token, expires_in=issued.expires_in)
