"""Limits on users' uploads, the single thread that parses them, and the per-user lock that
keeps the live-document limit.

An upload is parsed under a `LoadBudget` derived from these limits, so a small file that
expands to a huge document is refused (413) while it is being parsed, not after. Parsing runs
in one dedicated thread shared by all uploads: at most one upload parses at a time, and the
default executor (Presidio, ONNX, the vector store, password hashing) stays free for chats.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from ingestion.chunking import Child, ChunkSizes, split_document
from ingestion.loaders import LoadBudget, TooManyChunks, load_document
from service.errors import ServiceError
from service.settings import Settings

__all__ = ["DocumentLimits", "TooManyChunks", "UserLocks", "parse_upload"]

# Defaults for limits built without Settings (tests); Settings declares the same values.
DEFAULT_MAX_DOCUMENTS = 20  # live (unexpired) uploads per user
DEFAULT_MAX_CHUNKS = 1000  # children per upload (~330 KB of text, ~45 s of ONNX embedding here)
DEFAULT_MAX_PDF_PAGES = 500  # pages a PDF upload may have (WARDEN_MAX_UPLOAD_PAGES, if declared)
DEFAULT_MAX_XML_BYTES = 20 * 1024 * 1024  # a DOCX's main XML, uncompressed: an absolute cap
DEFAULT_PARSE_SECONDS = 20.0  # wall-time backstop per upload parse; the budgets bind first
MULTIPART_ENVELOPE_BYTES = 1024  # boundaries and part headers around the file
DEFAULT_PENDING_GRACE = timedelta(hours=1)  # an upload pending longer was left by a crash
EXPANSION_FACTOR = 16  # a DOCX archive may inflate to 16x the upload cap, no more (zip bombs)


@dataclass(frozen=True)
class DocumentLimits:
    max_upload_bytes: int
    ttl: timedelta
    max_documents: int = DEFAULT_MAX_DOCUMENTS
    max_chunks: int = DEFAULT_MAX_CHUNKS
    max_pdf_pages: int = DEFAULT_MAX_PDF_PAGES
    max_xml_bytes: int = DEFAULT_MAX_XML_BYTES
    parse_seconds: float = DEFAULT_PARSE_SECONDS
    pending_grace: timedelta = DEFAULT_PENDING_GRACE

    @classmethod
    def from_settings(cls, settings: Settings) -> DocumentLimits:
        return cls(
            max_upload_bytes=settings.max_upload_bytes,
            ttl=timedelta(hours=settings.upload_ttl_hours),
            max_documents=settings.max_documents_per_user,
            max_chunks=settings.max_upload_chunks,
            max_pdf_pages=settings.max_upload_pages,
        )

    @property
    def max_request_bytes(self) -> int:
        """The multipart body an upload of the largest allowed file may take."""
        return self.max_upload_bytes + MULTIPART_ENVELOPE_BYTES

    @property
    def max_expanded_bytes(self) -> int:
        return EXPANSION_FACTOR * self.max_upload_bytes

    @property
    def max_chars(self) -> int:
        """Text that cannot fit in max_chunks children (each adds under child_max characters)."""
        return self.max_chunks * ChunkSizes().child_max

    def load_budget(self, observe: Callable[[str], None] | None = None) -> LoadBudget:
        return LoadBudget.for_text(
            self.max_chars,
            max_pages=self.max_pdf_pages,
            max_xml_bytes=self.max_xml_bytes,
            max_seconds=self.parse_seconds,
            observe=observe,
        )

    def too_large(self) -> ServiceError:
        return ServiceError(
            "upload_too_large", f"The upload is larger than {self.max_upload_bytes} bytes.", 413
        )


@functools.cache
def _upload_parser() -> ThreadPoolExecutor:
    """The one thread that parses uploads (made on first use, shared by the process)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="warden-upload-parse")


def _parse(data: bytes, name: str, doc_id: str, budget: LoadBudget) -> list[Child]:
    return split_document(doc_id, load_document(data, name, budget=budget))


async def parse_upload(
    data: bytes,
    name: str,
    doc_id: str,
    limits: DocumentLimits,
    *,
    observe: Callable[[str], None] | None = None,
) -> list[Child]:
    """Parses and splits an upload in the upload thread, under the limits' budget; refuses it
    before any embedding. Raises TooManyChunks or DocumentTooLarge (413), or the loaders'
    other DocumentErrors for a bad file."""
    budget = limits.load_budget(observe)
    loop = asyncio.get_running_loop()
    children = await loop.run_in_executor(_upload_parser(), _parse, data, name, doc_id, budget)
    if len(children) > limits.max_chunks:
        raise TooManyChunks(
            f"the document is too long ({len(children)} chunks, the limit is "
            f"{limits.max_chunks}); split it up"
        )
    return children


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
