"""Port records <-> MongoDB documents for MongoStore. Datetimes are stored as UTC and come
back timezone-aware UTC (BSON keeps milliseconds; a naive BSON datetime is UTC)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pipelines.ports import ChatRecord, DocumentRecord, UserRecord

_ROLE_ORDER = {"user": 0, "assistant": 1}


def as_utc(value: datetime) -> datetime:
    """Timezone-aware UTC; a naive datetime is taken as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def normal_email(email: str) -> str:
    return email.strip().lower()


def chat_doc(record: ChatRecord) -> dict[str, Any]:
    """`_id` = turn_id:role, so saving a turn twice stores it once."""
    return {
        "_id": f"{record.turn_id}:{record.role}",
        "user_id": record.user_id,
        "role": record.role,
        "sort_key": sort_key(record),
        "content": record.content,
        "created_at": as_utc(record.created_at),
        "turn_id": record.turn_id,
        "route": record.route,
        **({"sealed": record.sealed} if record.sealed is not None else {}),
    }


def sort_key(record: ChatRecord) -> str:
    """Chronological as one string: UTC time to the millisecond, then the user message
    before its answer. One sort field keeps mongoeco's planner cheap."""
    return sort_key_at(record.created_at, record.role)


def sort_key_at(created_at: datetime, role: str) -> str:
    at = as_utc(created_at)
    return f"{at:%Y-%m-%dT%H:%M:%S}.{at.microsecond // 1000:03d}Z#{_ROLE_ORDER[role]}"


def chat_record(doc: dict[str, Any]) -> ChatRecord:
    return ChatRecord(
        user_id=doc["user_id"],
        role=doc["role"],
        content=doc["content"],
        created_at=as_utc(doc["created_at"]),
        turn_id=doc["turn_id"],
        route=doc.get("route"),
        sealed=doc.get("sealed"),
    )


def user_doc(user: UserRecord) -> dict[str, Any]:
    return {
        "_id": user.id,
        "email": normal_email(user.email),
        "name": user.name,
        "password_hash": user.password_hash,
        "created_at": as_utc(user.created_at),
    }


def user_record(doc: dict[str, Any]) -> UserRecord:
    return UserRecord(
        id=doc["_id"],
        email=doc["email"],
        name=doc["name"],
        password_hash=doc["password_hash"],
        created_at=as_utc(doc["created_at"]),
    )


def document_doc(record: DocumentRecord) -> dict[str, Any]:
    return {
        "_id": record.id,
        "user_id": record.user_id,
        "name": record.name,
        "chunks": record.chunks,
        "created_at": as_utc(record.created_at),
        "expires_at": as_utc(record.expires_at),
        "held_back": record.held_back,
        "held_back_reasons": list(record.held_back_reasons),
        "state": record.state,
    }


def document_record(doc: dict[str, Any]) -> DocumentRecord:
    return DocumentRecord(
        id=doc["_id"],
        user_id=doc["user_id"],
        name=doc["name"],
        chunks=int(doc["chunks"]),
        created_at=as_utc(doc["created_at"]),
        expires_at=as_utc(doc["expires_at"]),
        held_back=int(doc.get("held_back", 0)),
        held_back_reasons=tuple(doc.get("held_back_reasons", ())),
        state="pending" if doc.get("state") == "pending" else "ready",  # older records: ready
    )
