"""How both Qdrant adapters store points and which conditions they filter on.

The semantics live here once; each adapter only translates `Condition`s into its SDK's types.

Stored payload = the port's payload + two reserved keys:
- `point_id`: the port's string id (Qdrant ids must be UUIDs or ints: the stored id is its uuid5);
- `scope`: "core" or "temporary", a keyword mirror of `is_temporary`. Qdrant Edge 0.9 turns
  booleans in `MatchValue` into integers and matches nothing (True and False, with or without a
  bool index, also in `must_not`), so no filter may rely on a boolean. The server adapter uses
  the same layout so both hold identical data and one contract suite covers both.

An upload's points carry `upload_state` (pipelines/ports/vector.py): the personal search
excludes "pending" ones (a `must_not`, so points written before the key existed still count).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pipelines.ports import (
    LAYOUT_KEY,
    PENDING,
    UPLOAD_STATE_KEY,
    IndexedDocument,
    IndexPoint,
    SearchHit,
    StoreUnavailable,
)

POINT_ID_KEY = "point_id"
SCOPE_KEY = "scope"
CORE, TEMPORARY = "core", "temporary"
_RESERVED = (POINT_ID_KEY, SCOPE_KEY)
_ID_NAMESPACE = uuid.UUID("6f1c1e52-3f0a-4a54-9c55-8e0f5d1b7a10")  # fixed forever: ids depend on it

IndexKind = Literal["keyword", "integer"]
# The fields that filters touch (is_temporary is filtered through its `scope` mirror).
PAYLOAD_INDEXES: dict[str, IndexKind] = {
    "chunk_type": "keyword",
    SCOPE_KEY: "keyword",
    "uploaded_by": "keyword",
    "doc_id": "keyword",
    "parent_id": "keyword",
    "expires_at": "integer",
    UPLOAD_STATE_KEY: "keyword",
}
TENANT_FIELD = "uploaded_by"  # a server collection's tenant index (qdrant_server.py)
CORE_DOC_FIELDS = ["doc_id", "content_hash", "source_root", LAYOUT_KEY]
SPARSE = "bm25"  # the sparse vector's name (IDF modifier); the dense vector stays unnamed
# An index created before hybrid search has no sparse vector: it keeps serving dense-only
# (Edge migrates itself on open, see qdrant_edge.py) and its sparse searches return nothing.


class IndexLocked(StoreUnavailable):
    """The index folder is already open (in this or another process)."""


@dataclass(frozen=True)
class Condition:
    """One `must` condition: `key == equals`, or a range `key > gt` / `key <= lte`;
    `excluded`: a `must_not` instead (the point must not match it)."""

    key: str
    equals: str | None = None
    gt: float | None = None
    lte: float | None = None
    excluded: bool = False


def point_uuid(point_id: str) -> str:
    """A stable UUID for a port id: the same id always maps to the same stored point."""
    return str(uuid.uuid5(_ID_NAMESPACE, point_id))


def epoch_seconds(now: datetime) -> float:
    """Epoch seconds; a naive datetime is read as UTC."""
    return (now if now.tzinfo else now.replace(tzinfo=UTC)).timestamp()


def stored_payload(point: IndexPoint) -> dict[str, Any]:
    scope = TEMPORARY if point.payload.get("is_temporary") is True else CORE
    return {**point.payload, POINT_ID_KEY: point.id, SCOPE_KEY: scope}


def to_hit(stored: Mapping[str, Any] | None, score: float, fallback_id: str) -> SearchHit:
    """A port hit: the original id back, reserved keys stripped."""
    stored = stored or {}
    payload = {k: v for k, v in stored.items() if k not in _RESERVED}
    return SearchHit(id=str(stored.get(POINT_ID_KEY, fallback_id)), score=score, payload=payload)


def note_core_document(found: dict[str, IndexedDocument], stored: Mapping[str, Any] | None) -> None:
    """Adds one scrolled core point (payload limited to CORE_DOC_FIELDS) to `found`."""
    stored = stored or {}
    if "doc_id" in stored:
        root = stored.get("source_root")
        layout = stored.get(LAYOUT_KEY)
        found[stored["doc_id"]] = IndexedDocument(
            content_hash=stored.get("content_hash") or "",
            source_root=root if isinstance(root, str) else None,
            layout=layout if isinstance(layout, int) and not isinstance(layout, bool) else 0,
        )


def check_vector(vector: Sequence[float], dimension: int) -> list[float]:
    if len(vector) != dimension:
        raise ValueError(f"vector has {len(vector)} dimensions, the index has {dimension}")
    return [float(x) for x in vector]


def require_user(user_id: str) -> None:
    if not user_id:
        raise ValueError("a user_id is required: temporary documents are scoped to their owner")


def core_children() -> list[Condition]:
    return [Condition("chunk_type", equals="child"), Condition(SCOPE_KEY, equals=CORE)]


def personal_children(user_id: str, now: datetime) -> list[Condition]:
    require_user(user_id)
    return [
        Condition("chunk_type", equals="child"),
        Condition(SCOPE_KEY, equals=TEMPORARY),
        Condition("uploaded_by", equals=user_id),
        Condition("expires_at", gt=epoch_seconds(now)),
        Condition(UPLOAD_STATE_KEY, equals=PENDING, excluded=True),
    ]


def core_points() -> list[Condition]:
    return [Condition(SCOPE_KEY, equals=CORE)]


def core_document(doc_id: str) -> list[Condition]:
    return [Condition("doc_id", equals=doc_id), Condition(SCOPE_KEY, equals=CORE)]


def temporary_document(doc_id: str, user_id: str) -> list[Condition]:
    require_user(user_id)
    return [
        Condition("doc_id", equals=doc_id),
        Condition(SCOPE_KEY, equals=TEMPORARY),
        Condition("uploaded_by", equals=user_id),
    ]


def user_uploads(user_id: str) -> list[Condition]:
    """Every temporary point the user uploaded (erasing the user: records or not)."""
    require_user(user_id)
    return [Condition(SCOPE_KEY, equals=TEMPORARY), Condition("uploaded_by", equals=user_id)]


def expired(now: datetime) -> list[Condition]:
    return [Condition(SCOPE_KEY, equals=TEMPORARY), Condition("expires_at", lte=epoch_seconds(now))]
