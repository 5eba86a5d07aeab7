"""Users' temporary documents: upload (check, index, record), list and delete one's own.

Nothing is half-written: the record is written pending, then the vectors, then the record
is marked ready (service/documents/lifecycle.py); a refused or failed upload leaves no
vectors and no record, and a crash leaves a pending one that start-up and the sweeper remove.
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
import dataclasses
import logging
import re
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ingestion.chunking import Child
from ingestion.indexer import index_upload
from ingestion.loaders import DocumentError
from pipelines.ports import DocumentRecord, DocumentRegistry, Embedder, VectorIndex
from pipelines.safety.documents import held_back_summary
from pipelines.safety.verdict import Verdict
from service.documents.checks import check_upload, clean_file_name
from service.documents.lifecycle import unavailable, write_upload
from service.documents.limits import DocumentLimits, UserLocks, parse_upload
from service.documents.sweeper import SweepResult, remove_pending, sweep_expired
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
        """Removes every expired upload, and every upload pending for longer than the grace (a
        crash left it), vectors then records (see service/documents/sweeper.py)."""
        now = self._clock()
        result = await sweep_expired(self._index, self._registry, now)
        stale = now - self.limits.pending_grace
        crashed = await remove_pending(self._index, self._registry, stale)
        return dataclasses.replace(result, pending_removed=crashed)

    async def remove_crashed(self, *, exclusive: bool) -> int:
        """At start: removes the uploads a crash left pending (vectors, then records). With a
        store no other process uses (`exclusive`), every pending upload is a crash's; with a
        shared one, only those pending for longer than the grace (others may be in flight)."""
        grace = timedelta(0) if exclusive else self.limits.pending_grace
        return await remove_pending(self._index, self._registry, self._clock() - grace)

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
            raise unavailable("store") from None

    async def delete(self, doc_id: str, *, user_id: str) -> None:
        """Vectors first (scoped to the user, so another user's id deletes nothing), then the
        record; 404 `document_not_found` for an unknown id and for another user's id alike."""
        if not DOCUMENT_ID.fullmatch(doc_id):
            raise _not_found()
        try:
            await self._index.delete_temporary(doc_id, user_id=user_id)
        except Exception as error:
            log.warning("deleting document vectors failed: %s", type(error).__name__)
            raise unavailable("index") from None
        try:
            existed = await self._registry.delete_document(doc_id, user_id=user_id)
        except Exception as error:
            log.warning("deleting a document record failed: %s", type(error).__name__)
            raise unavailable("store") from None
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
        kept, held, reasons = await asyncio.to_thread(self._screened, children)
        record = DocumentRecord(
            id=doc_id,
            user_id=user_id,
            name=name,
            chunks=len(kept),
            created_at=now,
            expires_at=now + self.limits.ttl,
            held_back=held,
            held_back_reasons=reasons,
        )

        async def index_vectors() -> int:
            return await self._index_children(kept, data, record) if kept else 0

        return await write_upload(record, index_vectors, index=self._index, registry=self._registry)

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


def _worse(own: Verdict, parent: Verdict) -> Verdict:
    return own if own.flagged or not parent.flagged else parent


def _not_found() -> ServiceError:
    return ServiceError("document_not_found", "No such document.", 404)
