"""DelegatingStore: the Store methods a history wrapper does not change (accounts, documents,
ping, close), passed through to the store it wraps. The outbox and the sealed history extend
it and override only the history methods."""

from __future__ import annotations

from datetime import datetime

from pipelines.ports import DocumentRecord, Store, UserRecord


class DelegatingStore:
    def __init__(self, inner: Store) -> None:
        self._inner = inner

    async def create_user(self, user: UserRecord) -> None:
        await self._inner.create_user(user)

    async def user_by_email(self, email: str) -> UserRecord | None:
        return await self._inner.user_by_email(email)

    async def add_document(self, record: DocumentRecord) -> None:
        await self._inner.add_document(record)

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]:
        return await self._inner.user_documents(user_id, now=now)

    async def mark_document_ready(self, doc_id: str, *, user_id: str) -> bool:
        return await self._inner.mark_document_ready(doc_id, user_id=user_id)

    async def pending_documents(self, created_before: datetime) -> list[DocumentRecord]:
        return await self._inner.pending_documents(created_before)

    async def delete_document(self, doc_id: str, *, user_id: str) -> bool:
        return await self._inner.delete_document(doc_id, user_id=user_id)

    async def expired_documents(self, now: datetime) -> list[DocumentRecord]:
        return await self._inner.expired_documents(now)

    async def ping(self) -> None:
        await self._inner.ping()

    async def close(self) -> None:
        await self._inner.close()
