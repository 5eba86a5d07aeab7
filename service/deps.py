"""Annotated dependency aliases that keep routes short: ContainerDep, CurrentUser, RateLimited."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer

from service.bootstrap import Container
from service.errors import ServiceError
from service.rate_limit import retry_after_header
from service.security import Principal, not_authenticated

# auto_error=False: a missing token is reported in our own error shape.
bearer = OAuth2PasswordBearer(tokenUrl="/v1/auth/token", auto_error=False)


def get_container(request: Request) -> Container:
    container: Container | None = getattr(request.app.state, "container", None)
    if container is None:  # only between process start and the end of the lifespan's startup
        raise ServiceError("starting", "The service is starting; try again shortly.", 503)
    return container


ContainerDep = Annotated[Container, Depends(get_container)]


def current_user(
    container: ContainerDep, token: Annotated[str | None, Depends(bearer)]
) -> Principal:
    """The caller, from a verified bearer token only (never from the request body)."""
    if not token:
        raise not_authenticated()
    return container.tokens.verify(token)


CurrentUser = Annotated[Principal, Depends(current_user)]


def rate_limited_user(container: ContainerDep, user: CurrentUser) -> Principal:
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


RateLimitedUser = Annotated[Principal, Depends(rate_limited_user)]
