"""Annotated dependency aliases that keep routes short: ContainerDep, CurrentUser, RateLimited,
ChatCallerDep.

The dependencies are `async def` although they never await: FastAPI runs a plain `def`
dependency in its threadpool, a thread hop per dependency per request. Each check is also a
plain function, so the chat fast path (service/fast_reject.py) runs the very same checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer

from service.auth.tokens import Principal, not_authenticated
from service.bootstrap import Container
from service.errors import ServiceError
from service.metrics import ChatMetrics
from service.rate_limit import retry_after_header

# auto_error=False: a missing token is reported in our own error shape.
bearer = OAuth2PasswordBearer(tokenUrl="/v1/auth/token", auto_error=False)


def container_of(request: Request) -> Container:
    container: Container | None = getattr(request.app.state, "container", None)
    if container is None:  # only between process start and the end of the lifespan's startup
        raise ServiceError("starting", "The service is starting; try again shortly.", 503)
    return container


def authenticate(container: Container, token: str | None) -> Principal:
    """The caller, from a verified bearer token only (never from the request body)."""
    if not token:
        raise not_authenticated()
    return container.tokens.verify(token)


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


async def current_user(
    container: ContainerDep, token: Annotated[str | None, Depends(bearer)]
) -> Principal:
    return authenticate(container, token)


CurrentUser = Annotated[Principal, Depends(current_user)]


async def rate_limited_user(container: ContainerDep, user: CurrentUser) -> Principal:
    return admit(container, user)


RateLimitedUser = Annotated[Principal, Depends(rate_limited_user)]


@dataclass(frozen=True)
class ChatCaller:
    """What a chat route needs, from one dependency: the admitted caller and the app's parts."""

    user: Principal
    container: Container
    metrics: ChatMetrics


def admitted_caller(request: Request, container: Container, user: Principal) -> ChatCaller:
    """The rate limit check (429; it counts this request), then the caller."""
    return ChatCaller(admit(container, user), container, request.app.state.metrics)


def chat_caller_of(request: Request, token: str | None) -> ChatCaller:
    """The checks of RateLimitedUser, in its order: starting (503), token (401), limit (429)."""
    container = container_of(request)
    return admitted_caller(request, container, authenticate(container, token))


async def chat_caller(
    request: Request, token: Annotated[str | None, Depends(bearer)]
) -> ChatCaller:
    return chat_caller_of(request, token)


ChatCallerDep = Annotated[ChatCaller, Depends(chat_caller)]
