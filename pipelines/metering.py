"""Counts the calls made through each port, per request (the `calls` field of SPEC section 4).

One explicit wrapper per port, a subclass of the port's protocol (so mypy checks that it is
complete and that its signatures match). Each method that does work for a message is counted
once, when it is called, under its port's kind; housekeeping (`ping`, `close`, `dimension`)
passes through uncounted. `ChatModel.stream` is counted when it is asked for, and the stream
it returns (the adapters' ChatStream, with its `.completion`) is passed on untouched."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any, Literal, overload

from pipelines.ports import (
    CallCounts,
    ChatModel,
    ChatRecord,
    Completion,
    DocumentRecord,
    DualSearchResult,
    Embedder,
    HistoryCursor,
    IndexedDocument,
    IndexPoint,
    Message,
    Store,
    UserRecord,
    VectorIndex,
)

CallKind = Literal["llm", "embed", "vector", "store"]
_current: ContextVar[CallCounts | None] = ContextVar("warden_call_counts", default=None)


@contextmanager
def metering() -> Iterator[CallCounts]:
    """Counts every metered port call made inside the block (and tasks it spawns)."""
    counts = CallCounts()
    token = _current.set(counts)
    try:
        yield counts
    finally:
        _current.reset(token)


def record(kind: CallKind) -> None:
    counts = _current.get()
    if counts is not None:
        setattr(counts, kind, getattr(counts, kind) + 1)


class MeteredEmbedder(Embedder):
    """Embedder: both embed calls count under "embed" (a cache hit inside is still a call)."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.dimension = inner.dimension

    async def embed_query(self, text: str) -> list[float]:
        record("embed")
        return await self._inner.embed_query(text)

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        record("embed")
        return await self._inner.embed_documents(texts)


class MeteredVectorIndex(VectorIndex):
    """VectorIndex: every call but `ping` and `close` counts under "vector"."""

    def __init__(self, inner: VectorIndex) -> None:
        self._inner = inner

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        record("vector")
        await self._inner.upsert(points)

    async def dual_search(
        self, vector: Sequence[float], *, user_id: str, now: datetime, **options: Any
    ) -> DualSearchResult:
        """`options`: core_limit, personal_limit, sparse (their defaults are the port's)."""
        record("vector")
        return await self._inner.dual_search(vector, user_id=user_id, now=now, **options)

    async def core_documents(self) -> dict[str, IndexedDocument]:
        record("vector")
        return await self._inner.core_documents()

    async def delete_document(self, doc_id: str) -> None:
        record("vector")
        await self._inner.delete_document(doc_id)

    async def delete_temporary(self, doc_id: str, *, user_id: str) -> None:
        record("vector")
        await self._inner.delete_temporary(doc_id, user_id=user_id)

    async def publish_temporary(self, doc_id: str, *, user_id: str) -> None:
        record("vector")
        await self._inner.publish_temporary(doc_id, user_id=user_id)

    async def delete_expired(self, now: datetime) -> None:
        record("vector")
        await self._inner.delete_expired(now)

    async def count(self) -> int:
        record("vector")
        return await self._inner.count()

    async def ping(self) -> None:
        await self._inner.ping()

    async def close(self) -> None:
        await self._inner.close()


class MeteredChatModel(ChatModel):
    """ChatModel: `complete` and `stream` count under "llm"; `ping` does not."""

    def __init__(self, inner: ChatModel) -> None:
        self._inner = inner

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        record("llm")
        return await self._inner.complete(messages, temperature=temperature, max_tokens=max_tokens)

    def stream(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> AsyncIterator[str]:
        record("llm")
        return self._inner.stream(messages, temperature=temperature, max_tokens=max_tokens)

    async def ping(self) -> None:
        await self._inner.ping()


class MeteredStore(Store):
    """Store (ChatStore + UserStore + DocumentRegistry): every call but `ping` and `close`
    counts under "store"."""

    def __init__(self, inner: Store) -> None:
        self._inner = inner

    # ChatStore
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        record("store")
        await self._inner.save_turn(records)

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        record("store")
        return await self._inner.recent_history(user_id, since=since, limit=limit, before=before)

    # UserStore
    async def create_user(self, user: UserRecord) -> None:
        record("store")
        await self._inner.create_user(user)

    async def user_by_email(self, email: str) -> UserRecord | None:
        record("store")
        return await self._inner.user_by_email(email)

    # DocumentRegistry
    async def add_document(self, document: DocumentRecord) -> None:
        record("store")
        await self._inner.add_document(document)

    async def user_documents(self, user_id: str, *, now: datetime) -> list[DocumentRecord]:
        record("store")
        return await self._inner.user_documents(user_id, now=now)

    async def delete_document(self, doc_id: str, *, user_id: str) -> bool:
        record("store")
        return await self._inner.delete_document(doc_id, user_id=user_id)

    async def expired_documents(self, now: datetime) -> list[DocumentRecord]:
        record("store")
        return await self._inner.expired_documents(now)

    async def mark_document_ready(self, doc_id: str, *, user_id: str) -> bool:
        record("store")
        return await self._inner.mark_document_ready(doc_id, user_id=user_id)

    async def pending_documents(self, created_before: datetime) -> list[DocumentRecord]:
        record("store")
        return await self._inner.pending_documents(created_before)

    # housekeeping
    async def ping(self) -> None:
        await self._inner.ping()

    async def close(self) -> None:
        await self._inner.close()


_WRAPPERS: dict[CallKind, Callable[[Any], Any]] = {
    "embed": MeteredEmbedder,
    "vector": MeteredVectorIndex,
    "llm": MeteredChatModel,
    "store": MeteredStore,
}


@overload
def metered(port: Embedder, kind: Literal["embed"]) -> Embedder: ...
@overload
def metered(port: VectorIndex, kind: Literal["vector"]) -> VectorIndex: ...
@overload
def metered(port: ChatModel, kind: Literal["llm"]) -> ChatModel: ...
@overload
def metered(port: Store, kind: Literal["store"]) -> Store: ...
def metered(port: Any, kind: CallKind) -> Any:
    """Wraps a port in its metered wrapper, so each work call through it counts under `kind`."""
    return _WRAPPERS[kind](port)
