"""An upload's writes, in the order that makes a crash at any point harmless:

1. the record, `pending`: not listed;
2. the vectors, `pending`: never searched; published once all are stored (index_upload);
3. the record, `ready`: listed from now on, and the upload is answered 201.

A failure at any step removes what was written (vectors, then the record) and becomes a 503.
A crash runs nothing more: it leaves a pending record, which the start-up clean-up and the
sweeper remove with its vectors (`remove_pending`, service/documents/sweeper.py). Only a crash
between publishing and step 3 leaves searchable vectors, and start-up removes them before the
service answers anyone.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

from pipelines.ports import DocumentRecord, DocumentRegistry, StoreUnavailable, VectorIndex
from service.errors import ServiceError

log = logging.getLogger("warden.documents")


def unavailable(what: str) -> ServiceError:
    return ServiceError(f"{what}_unavailable", f"The {what} is unavailable; retry later.", 503)


async def write_upload(
    record: DocumentRecord,
    index_vectors: Callable[[], Awaitable[int]],
    *,
    index: VectorIndex,
    registry: DocumentRegistry,
) -> DocumentRecord:
    """Runs the three steps for `record` (`index_vectors` writes and publishes the vectors and
    returns how many); the ready record, or a 503 `<port>_unavailable` with nothing kept."""
    pending = replace(record, state="pending")
    async with _forgotten_on_failure(pending, index, registry, "recording", "store"):
        await registry.add_document(pending)
    async with _forgotten_on_failure(pending, index, registry, "indexing", "index"):
        chunks = await index_vectors()
    async with _forgotten_on_failure(pending, index, registry, "recording", "store"):
        if not await registry.mark_document_ready(record.id, user_id=record.user_id):
            raise StoreUnavailable("the pending record was removed meanwhile")
    return replace(record, chunks=chunks, state="ready")


@asynccontextmanager
async def _forgotten_on_failure(
    record: DocumentRecord,
    index: VectorIndex,
    registry: DocumentRegistry,
    step: str,
    port: str,
) -> AsyncIterator[None]:
    """If the block fails, even by cancellation, the upload is removed again; an exception
    becomes a 503 `<port>_unavailable`."""
    try:
        yield
    except BaseException as error:
        await forget(record, index, registry)
        if isinstance(error, Exception):
            log.warning("%s an upload failed: %s", step, type(error).__name__)
            raise unavailable(port) from None
        raise


async def forget(record: DocumentRecord, index: VectorIndex, registry: DocumentRegistry) -> None:
    """Removes an upload's vectors, then its record; what fails stays pending, and the
    sweeper removes it (vectors included) later."""
    try:
        await index.delete_temporary(record.id, user_id=record.user_id)
        await registry.delete_document(record.id, user_id=record.user_id)
    except Exception as error:  # noqa: BLE001 - the original failure is what we report
        log.warning("upload clean-up failed (%s); the sweeper removes it", type(error).__name__)
