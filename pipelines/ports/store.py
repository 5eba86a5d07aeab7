"""The store ports: chat history, users and uploaded-document records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable


@dataclass(frozen=True)
class ChatRecord:
    """One stored history message."""

    user_id: str
    role: Literal["user", "assistant"]
    content: str
    created_at: datetime
    turn_id: str  # both messages of one turn share it; makes saving idempotent
    route: str | None = None
    # at rest: `content` holds placeholders and this the values they stand for, encrypted
    # (service/adapters/store/sealed_history.py); None for a message held in the clear
    sealed: str | None = None


HISTORY_ROLE_ORDER = {"user": 0, "assistant": 1}  # a turn's question before its answer


@dataclass(frozen=True)
class HistoryCursor:
    """A position in one user's history: a page asks for the messages older than it.
    History is ordered by (created_at, role), the question of a turn before its answer."""

    created_at: datetime
    role: Literal["user", "assistant"]

    @classmethod
    def at(cls, record: ChatRecord) -> HistoryCursor:
        return cls(record.created_at, record.role)

    def is_after(self, record: ChatRecord) -> bool:
        """True when `record` comes before this position (belongs to the older page)."""
        mine = (self.created_at, HISTORY_ROLE_ORDER[self.role])
        return (record.created_at, HISTORY_ROLE_ORDER[record.role]) < mine


@dataclass(frozen=True)
class UserRecord:
    id: str  # opaque, never the email
    email: str
    name: str
    password_hash: str
    created_at: datetime


@dataclass(frozen=True)
class DocumentRecord:
    id: str
    user_id: str
    name: str
    chunks: int
    created_at: datetime
    expires_at: datetime
    # chunks of an upload not indexed because they carry instructions for the model, and the
    # rules that held them back (pipelines/safety/documents.py)
    held_back: int = 0
    held_back_reasons: tuple[str, ...] = ()
    # "pending" from the first write until every vector is stored: not listed, and removed
    # with its vectors by the start-up clean-up and the sweeper (a crash left it behind)
    state: Literal["pending", "ready"] = "ready"


class AlreadyExists(Exception):
    """A unique key (email, document id) is taken."""


class StoreUnavailable(Exception):
    """The store could not be reached or failed."""


@runtime_checkable
class ChatStore(Protocol):
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        """Saves the messages of one turn; saving the same turn_id twice stores it once."""
        ...

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        """The user's newest `limit` messages since `since` (and older than `before`, when
        given: the next page back), oldest first."""
        ...


@runtime_checkable
class UserStore(Protocol):
    async def create_user(self, user: UserRecord) -> None:
        """Raises AlreadyExists when the email is taken."""
        ...

    async def user_by_email(self, email: str) -> UserRecord | None: ...


@runtime_checkable
class DocumentRegistry(Protocol):
    async def add_document(self, record: DocumentRecord) -> None: ...

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]:
        """The user's unexpired ready documents (never a pending one), oldest first."""
        ...

    async def mark_document_ready(self, doc_id: str, *, user_id: str) -> bool:
        """Pending -> ready; False when the user has no such pending document (it was removed)."""
        ...

    async def pending_documents(self, created_before: datetime) -> list[DocumentRecord]:
        """Every user's pending documents created at or before `created_before`."""
        ...

    async def delete_document(self, doc_id: str, *, user_id: str) -> bool:
        """True when the user's document existed and is now gone."""
        ...

    async def expired_documents(self, now: datetime) -> list[DocumentRecord]: ...


@runtime_checkable
class Store(ChatStore, UserStore, DocumentRegistry, Protocol):
    """Everything kept in the document database."""

    async def ping(self) -> None: ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------- tracing
