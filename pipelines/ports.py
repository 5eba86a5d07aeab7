"""Ports: the small interfaces the pipeline and ingestion talk to. Adapters live in service/."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

# ---------------------------------------------------------------- embeddings


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-length vectors of a fixed dimension."""

    dimension: int

    async def embed_query(self, text: str) -> list[float]: ...

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...


# ---------------------------------------------------------------- vectors


@dataclass(frozen=True)
class IndexPoint:
    """One child chunk ready to index. `payload` follows SPEC section 2."""

    id: str
    vector: Sequence[float]
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float  # cosine similarity, higher is closer
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class DualSearchResult:
    core: list[SearchHit]
    personal: list[SearchHit]


@dataclass(frozen=True)
class IndexedDocument:
    """What the index knows about one core document (see `VectorIndex.core_documents`)."""

    content_hash: str
    source_root: str | None = None  # the folder `warden ingest` found it in; None for older data


@runtime_checkable
class VectorIndex(Protocol):
    """The vector store. Tenant scoping is applied inside `dual_search`, never by callers."""

    async def upsert(self, points: Sequence[IndexPoint]) -> None: ...

    async def dual_search(
        self,
        vector: Sequence[float],
        *,
        user_id: str,
        now: datetime,
        core_limit: int = 15,
        personal_limit: int = 5,
    ) -> DualSearchResult:
        """Core children (`is_temporary` false) and this user's unexpired temporary children.

        One round trip to the index; `user_id` is mandatory and goes into the filter.
        """
        ...

    async def core_documents(self) -> dict[str, IndexedDocument]:
        """`doc_id -> IndexedDocument` for every core (non-temporary) document indexed."""
        ...

    async def delete_document(self, doc_id: str) -> None:
        """Removes every point of a core document."""
        ...

    async def delete_temporary(self, doc_id: str, *, user_id: str) -> None:
        """Removes one user's temporary document (only if it is theirs)."""
        ...

    async def delete_expired(self, now: datetime) -> None: ...

    async def count(self) -> int: ...

    async def ping(self) -> None:
        """Raises if the index cannot serve."""
        ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------- PII


@dataclass(frozen=True)
class PiiSpan:
    start: int
    end: int
    entity_type: str  # Presidio's type name, e.g. EMAIL_ADDRESS
    score: float = 1.0


@runtime_checkable
class PiiDetector(Protocol):
    """Finds personal data in text. Masking itself is pure (pipelines.safety.placeholders)."""

    async def detect(self, text: str) -> list[PiiSpan]: ...


# ---------------------------------------------------------------- chat model


Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0


class ModelUnavailable(Exception):
    """The chat model failed, timed out, or its circuit breaker is open."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # short machine-readable code, e.g. "breaker_open", "timeout"


@runtime_checkable
class ChatModel(Protocol):
    """An OpenAI-compatible chat model. Raises ModelUnavailable, never vendor errors."""

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion: ...

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> AsyncIterator[str]: ...

    async def ping(self) -> None: ...


# ---------------------------------------------------------------- stores


@dataclass(frozen=True)
class ChatRecord:
    """One stored history message."""

    user_id: str
    role: Literal["user", "assistant"]
    content: str
    created_at: datetime
    turn_id: str  # both messages of one turn share it; makes saving idempotent
    route: str | None = None


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
        self, user_id: str, *, since: datetime, limit: int
    ) -> list[ChatRecord]:
        """The user's newest `limit` messages since `since`, oldest first."""
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

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]: ...

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


@runtime_checkable
class Tracer(Protocol):
    """Receives one structured, already-masked event per request. Never raises."""

    def emit(self, event: Mapping[str, Any]) -> None: ...

    async def flush(self, timeout_s: float) -> None: ...


@dataclass
class CallCounts:
    """What one message cost, counted where the ports are called (SPEC section 4)."""

    llm: int = 0
    embed: int = 0
    vector: int = 0
    store: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"llm": self.llm, "embed": self.embed, "vector": self.vector, "store": self.store}


@dataclass(frozen=True)
class Source:
    source: str
    page: int | None
    parent_id: str
    preview: str
    score: float
    doc_id: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "page": self.page,
            "parent_id": self.parent_id,
            "preview": self.preview,
            "score": round(self.score, 4),
        }
