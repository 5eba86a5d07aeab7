"""A user's own data: export it, erase the history, erase the account and everything in it
(service/privacy/me.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from service.container import Container
from service.errors import ServiceError, responses
from service.http.deps import ContainerDep, RateLimitedUser
from service.privacy.me import MeService

router = APIRouter(prefix="/v1/me", tags=["me"])


def _me(container: Container) -> MeService:
    if container.me is None:
        raise ServiceError("not_supported", "This deployment cannot export or erase data.", 501)
    return container.me


@router.get("/export", responses=responses(401, 429, 501, 503))
async def get_export(user: RateLimitedUser, container: ContainerDep) -> dict[str, Any]:
    """`{account, history, documents}`: your account, your history of the last 30 days (your
    own values restored) and your unexpired documents."""
    return await _me(container).export(user)


@router.delete("/history", status_code=204, responses=responses(401, 429, 501, 503))
async def delete_history(user: RateLimitedUser, container: ContainerDep) -> Response:
    """Erases your chat history."""
    await _me(container).erase_history(user)
    return Response(status_code=204)


@router.delete("", status_code=204, responses=responses(401, 429, 501, 503))
async def delete_me(user: RateLimitedUser, container: ContainerDep) -> Response:
    """Erases your account, history, uploads and their vectors; your tokens stop working."""
    await _me(container).erase(user)
    return Response(status_code=204)
