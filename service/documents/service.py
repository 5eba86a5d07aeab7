"""Users' temporary documents: upload (check, index, record), list and delete one's own.

Nothing is half-written: a refused or failed upload leaves no vectors and no record (indexing
removes what it wrote; a record that cannot be stored takes its vectors with it). Should that
clean-up itself fail, the vectors still carry `expires_at` and the sweeper removes them.
One user's uploads run one at a time (per process), so the live-document limit holds.
An upload is parsed once, under a work budget, in the single upload-parsing thread, and
refused (413) as soon as the budget is spent; uploads are then embedded one at a time, so
uploads queue behind each other instead of starving chats.
An upload is untrusted input: each chunk, and the section it is shown with, is screened for
instructions addressed to the model (`screen`, pipelines/safety/documents.py); a flagged
chunk is held back, never indexed, and the record says how many were and why.
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from ingestion.chunking import Child
from ingestion.indexer import index_upload
from ingestion.loaders import DocumentError
from pipelines.ports import DocumentRecord, DocumentRegistry, Embedder, VectorIndex
from pipelines.safety.documents import held_back_summary
from pipelines.safety.verdict import Verdict
from service.documents.checks import check_upload, clean_file_name
from service.documents.limits import DocumentLimits, UserLocks, parse_upload
from service.documents.sweeper import SweepResult, sweep_expired
from service.errors import ServiceError

log = logging.getLogger("warden.documents")
DOCUMENT_ID = re.compile(r"[0-9a-f]{32}")  # uuid4().hex
_STATUS_FOR_CODE = {
    "unsupported_type": 415,
    "upload_too_large": 413,
    "document_too_large": 413,
    "too_many_chunks": 413,
}


def refusal(error: DocumentError) -> ServiceError:
    """unsupported_type 415; upload_too_large, document_too_large, too_many_chunks 413;
    corrupt/empty 422."""
    return ServiceError(error.code, str(error), _STATUS_FOR_CODE.get(error.code, 422))


def _millis(moment: datetime) -> datetime:
    """Millisecond precision, as the store keeps it (the answer equals what GET returns)."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def _unavailable(what: str) -> ServiceError:
    return ServiceError(f"{what}_unavailable", f"The {what} is unavailable; retry later.", 503)


class DocumentService:
    def __init__(
        self,
        *,
        index: VectorIndex,
        embedder: Embedder,
        registry: DocumentRegistry,
        clock: Callable[[], datetime],
        limits: DocumentLimits,
        screen: Callable[[str], Verdict],
    ) -> None:
        self._index = index
        self._screen = screen
        self._embedder = embedder
        self._registry = registry
        self._clock = clock
        self.limits = limits
        self._locks = UserLocks()
        self._embedding = asyncio.Semaphore(1)  # one upload embeds at a time

    def with_limits(self, limits: DocumentLimits) -> DocumentService:
        """The same service over the same ports, with other limits (tests, tuning)."""
        return self._with(limits=limits)

    def with_clock(self, clock: Callable[[], datetime]) -> DocumentService:
        """The same service over the same ports, reading another clock (tests)."""
        return self._with(clock=clock)

    def _with(self, **changes: Any) -> DocumentService:
        parts: dict[str, Any] = {
            "index": self._index,
            "embedder": self._embedder,
            "registry": self._registry,
            "clock": self._clock,
            "limits": self.limits,
            "screen": self._screen,
        }
        return DocumentService(**{**parts, **changes})

    async def sweep(self) -> SweepResult:
        """Removes every expired upload, vectors then records (see service/documents/sweeper.py)."""
        return await sweep_expired(self._index, self._registry, self._clock())

    async def upload(self, data: bytes, raw_name: str | None, *, user_id: str) -> DocumentRecord:
        """Checks, indexes and records one upload; raises ServiceError with a stable code."""
        if not user_id:
            raise ValueError("an upload needs the user id from the verified token")
        if len(data) > self.limits.max_upload_bytes:
            raise self.limits.too_large()
        name = clean_file_name(raw_name)
        try:
            check_upload(
                data,
                name,
                max_expanded_bytes=self.limits.max_expanded_bytes,
                max_xml_bytes=self.limits.max_xml_bytes,
            )
        except DocumentError as error:
            raise refusal(error) from None
        async with self._locks.hold(user_id):
            await self._check_quota(user_id)
            doc_id = uuid.uuid4().hex  # chunk ids derive from it
            try:
                children = await parse_upload(data, name, doc_id, self.limits)
            except DocumentError as error:
                raise refusal(error) from None
            async with self._embedding:
                return await self._index_and_record(children, data, name, user_id, doc_id)

    async def live_documents(self, user_id: str) -> list[DocumentRecord]:
        """The user's unexpired documents, oldest first."""
        try:
            return await self._registry.user_documents(user_id, now=self._clock())
        except Exception as error:
            log.warning("listing documents failed: %s", type(error).__name__)
            raise _unavailable("store") from None

    async def delete(self, doc_id: str, *, user_id: str) -> None:
        """Vectors first (scoped to the user, so another user's id deletes nothing), then the
        record; 404 `document_not_found` for an unknown id and for another user's id alike."""
        if not DOCUMENT_ID.fullmatch(doc_id):
            raise _not_found()
        try:
            await self._index.delete_temporary(doc_id, user_id=user_id)
        except Exception as error:
            log.warning("deleting document vectors failed: %s", type(error).__name__)
            raise _unavailable("index") from None
        try:
            existed = await self._registry.delete_document(doc_id, user_id=user_id)
        except Exception as error:
            log.warning("deleting a document record failed: %s", type(error).__name__)
            raise _unavailable("store") from None
        if not existed:
            raise _not_found()

    async def _check_quota(self, user_id: str) -> None:
        live = len(await self.live_documents(user_id))
        if live >= self.limits.max_documents:
            raise ServiceError(
                "too_many_documents",
                f"You have {live} documents (the limit is {self.limits.max_documents}); "
                "delete one or wait for one to expire.",
                409,
            )

    async def _index_and_record(
        self, children: Sequence[Child], data: bytes, name: str, user_id: str, doc_id: str
    ) -> DocumentRecord:
        now = _millis(self._clock())
        record = DocumentRecord(
            id=doc_id,
            user_id=user_id,
            name=name,
            chunks=0,
            created_at=now,
            expires_at=now + self.limits.ttl,
        )
        kept, held, reasons = await asyncio.to_thread(self._screened, children)
        async with self._forgotten_on_failure(record, "indexing", "index"):
            chunks = await self._index_children(kept, data, record) if kept else 0
        record = replace(record, chunks=chunks, held_back=held, held_back_reasons=reasons)
        async with self._forgotten_on_failure(record, "recording", "store"):
            await self._registry.add_document(record)
        return record

    def _screened(self, children: Sequence[Child]) -> tuple[list[Child], int, tuple[str, ...]]:
        """The children to index, and how many were held back and why: a child is held back
        when its text or its parent section (what the model is shown) is flagged."""
        screen, parents = self._screen, dict[str, Verdict]()
        for child in children:
            if child.parent_id not in parents:
                parents[child.parent_id] = screen(child.parent_text)
        verdicts = [_worse(screen(c.text), parents[c.parent_id]) for c in children]
        held, reasons = held_back_summary(verdicts)
        return [c for c, v in zip(children, verdicts, strict=True) if not v.flagged], held, reasons

    async def _index_children(
        self, children: Sequence[Child], data: bytes, record: DocumentRecord
    ) -> int:
        return await index_upload(
            data,
            record.name,
            user_id=record.user_id,
            doc_id=record.id,
            expires_at=record.expires_at,
            embedder=self._embedder,
            index=self._index,
            children=children,
        )

    @asynccontextmanager
    async def _forgotten_on_failure(
        self, record: DocumentRecord, step: str, port: str
    ) -> AsyncIterator[None]:
        """If the block fails, even by cancellation (no vectors without a record), the upload's
        vectors are removed; an exception becomes a 503 `<port>_unavailable`."""
        try:
            yield
        except BaseException as error:
            await self._forget(record)
            if isinstance(error, Exception):
                log.warning("%s an upload failed: %s", step, type(error).__name__)
                raise _unavailable(port) from None
            raise

    async def _forget(self, record: DocumentRecord) -> None:
        """Removes an upload's vectors; on failure the sweeper removes them at expiry."""
        try:
            await self._index.delete_temporary(record.id, user_id=record.user_id)
        except Exception as error:  # noqa: BLE001 - the original failure is what we report
            log.warning(
                "upload clean-up failed (%s); the sweeper removes its vectors at %s",
                type(error).__name__,
                record.expires_at.isoformat(),
            )


def _worse(own: Verdict, parent: Verdict) -> Verdict:
    return own if own.flagged or not parent.flagged else parent


def _not_found() -> ServiceError:
    return ServiceError("document_not_found", "No such document.", 404)
