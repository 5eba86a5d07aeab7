"""Limits on users' uploads, and the per-user lock that keeps the live-document limit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from ingestion.loaders import DocumentError
from ingestion.points import children_of
from service.errors import ServiceError
from service.settings import Settings

# Defaults for limits built without Settings (tests); Settings declares the same values.
DEFAULT_MAX_DOCUMENTS = 20  # live (unexpired) uploads per user
DEFAULT_MAX_CHUNKS = 1000  # children per upload (~330 KB of text, ~45 s of ONNX embedding here)
EXPANSION_FACTOR = 16  # a DOCX may inflate to 16x the upload cap, no more (zip bombs)


@dataclass(frozen=True)
class DocumentLimits:
    max_upload_bytes: int
    ttl: timedelta
    max_documents: int = DEFAULT_MAX_DOCUMENTS
    max_chunks: int = DEFAULT_MAX_CHUNKS

    @classmethod
    def from_settings(cls, settings: Settings) -> DocumentLimits:
        return cls(
            max_upload_bytes=settings.max_upload_bytes,
            ttl=timedelta(hours=settings.upload_ttl_hours),
            max_documents=settings.max_documents_per_user,
            max_chunks=settings.max_upload_chunks,
        )

    @property
    def max_expanded_bytes(self) -> int:
        return EXPANSION_FACTOR * self.max_upload_bytes

    def too_large(self) -> ServiceError:
        return ServiceError(
            "upload_too_large", f"The upload is larger than {self.max_upload_bytes} bytes.", 413
        )


class TooManyChunks(DocumentError):
    code = "too_many_chunks"


async def check_chunk_count(data: bytes, name: str, max_chunks: int) -> None:
    """Parses and splits once to count chunks, so an overlong document is refused before any
    embedding. (index_upload parses again: cheap next to embedding at ~20 chunks/s here.)
    Raises TooManyChunks, or the loaders' DocumentErrors for a bad file."""
    chunks = len(await children_of(data, name, "size-check"))
    if chunks > max_chunks:
        raise TooManyChunks(
            f"the document is too long ({chunks} chunks, the limit is {max_chunks}); split it up"
        )


class UserLocks:
    """One asyncio.Lock per user with work in flight; a lock is dropped when nobody holds it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, user_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(user_id, (asyncio.Lock(), 0))
        self._locks[user_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[user_id]
            if users <= 1:
                del self._locks[user_id]
            else:
                self._locks[user_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
