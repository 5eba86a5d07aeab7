"""A user's own data: export it, erase the history, erase the account and everything in it
(service/privacy/me.py)."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Response
from pydantic import BaseModel

from service.container import Container
from service.errors import ServiceError, responses
from service.http.chat import HistoryMessage
from service.http.deps import ContainerDep, RateLimitedUser
from service.http.documents import DocumentOut
from service.privacy.me import MeService

router = APIRouter(prefix="/v1/me", tags=["me"])


class AccountOut(BaseModel):
    id: str
    email: str
    name: str
    created_at: datetime | None  # null for an identity provider's user
    local: bool  # an own account (false: the identity provider's)


class ExportOut(BaseModel):
    account: AccountOut
    history: list[HistoryMessage]  # oldest first, your values restored
    documents: list[DocumentOut]


def _me(container: Container) -> MeService:
    if container.me is None:
        raise ServiceError("not_supported", "This deployment cannot export or erase data.", 501)
    return container.me


@router.get("/export", responses=responses(401, 429, 501, 503))
async def get_export(user: RateLimitedUser, container: ContainerDep) -> ExportOut:
    """Your account, your history of the last 30 days (your own values restored) and your
    unexpired documents."""
    export = await _me(container).export(user)
    account = export.account
    return ExportOut(
        account=AccountOut(
            id=account.id,
            email=account.email,
            name=account.name,
            created_at=account.created_at,
            local=account.local,
        ),
        history=[HistoryMessage.of(r) for r in export.history],
        documents=[DocumentOut.of(d) for d in export.documents],
    )


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
