"""MeService: a user's own data (SPEC section 4, `/v1/me`): export it, erase the history,
erase everything.

Erasing everything refuses the user's tokens first (an access rule keyed by a hash of the
id, so concurrent requests stop), then deletes the upload records, every vector the user
uploaded (with or without a record), the history (queued turns too) and the account, and
finally compacts both stores so that no deleted bytes stay in their files."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from pipelines.ports import AccountData, ChatRecord, DocumentRecord, StoreUnavailable, UserVectors
from service.auth.access import AccessRules
from service.auth.tokens import Principal
from service.chat import ChatService
from service.documents.service import DocumentService
from service.errors import ServiceError

log = logging.getLogger("warden.privacy")
EXPORT_MESSAGES = 100_000  # the 30 days of history a user can have, with room to spare


def _unavailable() -> ServiceError:
    return ServiceError("store_unavailable", "Your data is unavailable; retry later.", 503)


@dataclass(frozen=True)
class Account:
    id: str
    email: str
    name: str
    created_at: datetime | None  # None for an identity provider's user (no local account)
    local: bool


@dataclass(frozen=True)
class Export:
    account: Account
    history: list[ChatRecord]
    documents: list[DocumentRecord]


class MeService:
    def __init__(
        self,
        *,
        chat: ChatService,
        documents: DocumentService,
        accounts: AccountData | None,
        vectors: UserVectors | None,
        access: AccessRules,
        forget_queued: Callable[[str], Awaitable[int]],
    ) -> None:
        self._chat = chat
        self._documents = documents
        self._accounts = accounts
        self._vectors = vectors
        self._access = access
        self._forget_queued = forget_queued

    def _stores(self) -> tuple[AccountData, UserVectors]:
        if self._accounts is None or self._vectors is None:
            raise ServiceError(
                "not_supported", "This deployment's stores cannot erase a user's data.", 501
            )
        return self._accounts, self._vectors

    async def export(self, caller: Principal) -> Export:
        """The account, the history (values restored) and the unexpired documents."""
        accounts, _ = self._stores()
        try:
            user = await accounts.user_by_id(caller.user_id)
            documents = await self._documents.live_documents(caller.user_id)
        except StoreUnavailable:
            raise _unavailable() from None
        history = await self._chat.history(caller, limit=EXPORT_MESSAGES)
        account = Account(
            id=caller.user_id,
            email=user.email if user else caller.email,
            name=user.name if user else caller.name,
            created_at=user.created_at if user else None,
            local=user is not None,
        )
        return Export(account, history, documents)

    async def erase_history(self, caller: Principal) -> int:
        """Deletes the caller's history; how many messages (or queued turns) there were."""
        accounts, _ = self._stores()
        try:
            erased = await self._forget_queued(caller.user_id)
            erased += await accounts.erase_history(caller.user_id)
            if erased:  # a repeated call costs no rebuild of the store
                await accounts.compact()
        except StoreUnavailable:
            raise _unavailable() from None
        return erased

    async def erase(self, caller: Principal) -> None:
        """Deletes the account, history, uploads and their vectors; the tokens stop working."""
        accounts, vectors = self._stores()
        user_id = caller.user_id
        try:
            await self._access.revoke(user_id)
            await accounts.erase_documents(user_id)
            await vectors.delete_user_documents(user_id)
            await self._forget_queued(user_id)
            await accounts.erase_history(user_id)
            await accounts.delete_user(user_id)
            await accounts.compact()
            await vectors.compact()
        except StoreUnavailable:
            raise _unavailable() from None
        log.info("erased a user's account and data")
