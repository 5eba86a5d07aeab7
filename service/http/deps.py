"""Annotated dependency aliases that keep routes short: ContainerDep, CurrentUser,
RateLimitedUser, ChatDep, DocumentsDep, AcceptedDep.

The dependencies are `async def` although they never await: FastAPI runs a plain `def`
dependency in its threadpool, a thread hop per dependency per request. Each check is also a
plain function, so the fast refusal (service/http/fast_reject.py) runs the very same checks.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer
from pydantic import BaseModel, ConfigDict, Field

from service.auth.tokens import Principal, not_authenticated
from service.chat import AcceptedMessage, ChatService
from service.container import Container
from service.documents.service import DocumentService
from service.errors import ServiceError
from service.http import patterns
from service.rate_limit import retry_after_header

# auto_error=False: a missing token is reported in our own error shape.
bearer = OAuth2PasswordBearer(tokenUrl="/v1/auth/token", auto_error=False)
ACCEPTED_STATE = "warden_accepted_message"  # request.state: what the fast refusal accepted


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Checked by ChatService.accept (413 over the cap, 422 `empty_message` when blank); the
    # schema says the same (at least one non-space character) without a second check here.
    message: Annotated[
        str,
        Field(
            json_schema_extra={"minLength": 1, "pattern": patterns.NOT_BLANK},
            description="At most WARDEN_MAX_MESSAGE_CHARS characters (default 4000; 413 "
            "`message_too_large` beyond), not only white space (422 `empty_message`).",
        ),
    ]


def container_of(request: Request) -> Container:
    container: Container | None = getattr(request.app.state, "container", None)
    if container is None:  # only between process start and the end of the lifespan's startup
        raise ServiceError("starting", "The service is starting; try again shortly.", 503)
    return container


async def authenticate(container: Container, token: str | None) -> Principal:
    """The caller, from a verified bearer token only (never from the request body). Awaits
    only when a provider token's key must be fetched (service/auth/jwks.py)."""
    if not token:
        raise not_authenticated()
    return await container.tokens.authenticate(token)


def admit(container: Container, user: Principal) -> Principal:
    """The caller, once their per-minute allowance admits this request (else 429)."""
    wait_s = container.limiter.check(user.user_id)
    if wait_s is not None:
        raise ServiceError(
            "rate_limited",
            "Too many requests; slow down and retry later.",
            429,
            headers=retry_after_header(wait_s),
        )
    return user


async def get_container(request: Request) -> Container:
    return container_of(request)


ContainerDep = Annotated[Container, Depends(get_container)]


async def get_chat(container: ContainerDep) -> ChatService:
    return container.chat


async def get_documents(container: ContainerDep) -> DocumentService:
    return container.documents


ChatDep = Annotated[ChatService, Depends(get_chat)]
DocumentsDep = Annotated[DocumentService, Depends(get_documents)]


async def current_user(
    container: ContainerDep, token: Annotated[str | None, Depends(bearer)]
) -> Principal:
    return await authenticate(container, token)


CurrentUser = Annotated[Principal, Depends(current_user)]


async def rate_limited_user(container: ContainerDep, user: CurrentUser) -> Principal:
    return admit(container, user)


RateLimitedUser = Annotated[Principal, Depends(rate_limited_user)]


async def accepted_message(request: Request, body: ChatRequest, chat: ChatDep) -> AcceptedMessage:
    """The message checked and classified once: by the fast refusal, which leaves what it
    accepted on the request's state, or here."""
    earlier = getattr(request.state, ACCEPTED_STATE, None)
    if isinstance(earlier, AcceptedMessage) and earlier.text == body.message:
        return earlier
    return chat.accept(body.message)


AcceptedDep = Annotated[AcceptedMessage, Depends(accepted_message)]
