"""FakeStore: an in-memory Store (chat, users, documents) that can be told to fail.

It mirrors the real adapter's observable behaviour, including what MongoDB does to
datetimes: they come back timezone-aware UTC, truncated to milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from pipelines.ports import (
    AlreadyExists,
    ChatRecord,
    DocumentRecord,
    HistoryCursor,
    StoreUnavailable,
    UserRecord,
)

_ROLE_ORDER = {"user": 0, "assistant": 1}


def _utc_ms(value: datetime) -> datetime:
    """UTC, millisecond precision (naive datetimes are taken as UTC)."""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return aware.replace(microsecond=aware.microsecond // 1000 * 1000)


def utc_now() -> datetime:
    """Now in UTC at millisecond precision, so records compare equal after a BSON round trip."""
    return _utc_ms(datetime.now(UTC))


def make_turn(
    user_id: str, turn_id: str, at: datetime, route: str | None = "question"
) -> list[ChatRecord]:
    """A user message and its answer sharing one turn id and timestamp."""
    return [
        ChatRecord(user_id, "user", f"question of {turn_id}", at, turn_id, route),
        ChatRecord(user_id, "assistant", f"answer to {turn_id}", at, turn_id, route),
    ]


def make_user(user_id: str = "u-1", email: str = "Asha.Rao@Example.com") -> UserRecord:
    return UserRecord(user_id, email, "Asha", "argon2$hash", utc_now())


def make_document(doc_id: str, user_id: str, expires_in: timedelta) -> DocumentRecord:
    """An upload record created now that expires `expires_in` from now (negative: expired)."""
    now = utc_now()
    return DocumentRecord(doc_id, user_id, f"{doc_id}.pdf", 3, now, now + expires_in)


class FakeStore:
    """In-memory Store. Set `fail_writes` / `fail_reads` to make calls raise StoreUnavailable."""

    def __init__(self) -> None:
        self.fail_writes = False
        self.fail_reads = False
        self.closed = False
        self.chats: dict[tuple[str, str], ChatRecord] = {}  # (turn_id, role) -> record
        self.users: dict[str, UserRecord] = {}  # lowercased email -> record
        self.documents: dict[str, DocumentRecord] = {}  # id -> record

    def _check_write(self) -> None:
        if self.fail_writes:
            raise StoreUnavailable("fake store: writes failing")

    def _check_read(self) -> None:
        if self.fail_reads:
            raise StoreUnavailable("fake store: reads failing")

    # ------------------------------------------------------------ chat
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        self._check_write()
        for record in records:
            key = (record.turn_id, record.role)
            self.chats.setdefault(key, replace(record, created_at=_utc_ms(record.created_at)))

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        self._check_read()
        if limit <= 0:
            return []
        since = _utc_ms(since)
        mine = [
            r
            for r in self.chats.values()
            if r.user_id == user_id
            and r.created_at >= since
            and (before is None or before.is_after(r))
        ]
        mine.sort(key=lambda r: (r.created_at, _ROLE_ORDER[r.role]))
        return mine[-limit:]

    # ------------------------------------------------------------ users
    async def create_user(self, user: UserRecord) -> None:
        self._check_write()
        email = user.email.strip().lower()
        if email in self.users or any(u.id == user.id for u in self.users.values()):
            raise AlreadyExists("user already exists")
        self.users[email] = replace(user, email=email, created_at=_utc_ms(user.created_at))

    async def user_by_email(self, email: str) -> UserRecord | None:
        self._check_read()
        return self.users.get(email.strip().lower())

    # ------------------------------------------------------------ documents
    async def add_document(self, record: DocumentRecord) -> None:
        self._check_write()
        if record.id in self.documents:
            raise AlreadyExists("document id already exists")
        self.documents[record.id] = replace(
            record,
            created_at=_utc_ms(record.created_at),
            expires_at=_utc_ms(record.expires_at),
        )

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]:
        self._check_read()
        now = _utc_ms(now)
        mine = [
            d
            for d in self.documents.values()
            if d.user_id == user_id and d.expires_at > now and d.state == "ready"
        ]
        return sorted(mine, key=lambda d: (d.created_at, d.id))

    async def mark_document_ready(self, doc_id: str, *, user_id: str) -> bool:
        self._check_write()
        record = self.documents.get(doc_id)
        if record is None or record.user_id != user_id or record.state != "pending":
            return False
        self.documents[doc_id] = replace(record, state="ready")
        return True

    async def pending_documents(self, created_before: datetime) -> list[DocumentRecord]:
        self._check_read()
        before = _utc_ms(created_before)
        pending = [
            d for d in self.documents.values() if d.state == "pending" and d.created_at <= before
        ]
        return sorted(pending, key=lambda d: (d.created_at, d.id))

    async def delete_document(self, doc_id: str, *, user_id: str) -> bool:
        self._check_write()
        record = self.documents.get(doc_id)
        if record is None or record.user_id != user_id:
            return False
        del self.documents[doc_id]
        return True

    async def expired_documents(self, now: datetime) -> list[DocumentRecord]:
        self._check_read()
        now = _utc_ms(now)
        expired = [d for d in self.documents.values() if d.expires_at <= now]
        return sorted(expired, key=lambda d: (d.expires_at, d.id))

    # ------------------------------------------------------------ lifecycle
    async def ping(self) -> None:
        if self.fail_reads or self.fail_writes:
            raise StoreUnavailable("fake store: down")

    async def close(self) -> None:
        self.closed = True
