"""SealedHistoryStore: a Store wrapper that keeps chat history masked at rest.

`save_turn` finds the personal values in both messages of a turn (the PII detector, plus
recurrences of a value found in the other message), stores each message's text with
placeholders in `content`, and the values they stand for sealed per user in `sealed`
(history_cipher: AES-GCM, bound to user, turn and role). `recent_history` opens and
restores them, so the owner, the pipeline's history window and the history API see their
own text as before. If detection fails, the whole message is sealed (nothing is lost and
nothing stored in the clear). A message stored before sealing existed (no `sealed`) is read
as it is and sealed by `reseal` (`warden rotate-data-key`).

Wrap the history outbox with it, so queued turns are sealed on disk too. Everything else is
passed through.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from pipelines.ports import (
    ChatRecord,
    HistoryCursor,
    PiiDetector,
    PiiSpan,
    Store,
)
from service.adapters.store.delegating import DelegatingStore
from service.adapters.store.history_cipher import HistoryCipher, SealError
from service.adapters.store.history_mask import MaskedText, mask_turn, restore, whole

log = logging.getLogger(__name__)


def _context(record: ChatRecord) -> str:
    return f"{record.turn_id}:{record.role}"


class SealedHistoryStore(DelegatingStore):
    def __init__(self, inner: Store, cipher: HistoryCipher, detector: PiiDetector) -> None:
        super().__init__(inner)
        self._cipher = cipher
        self._detector = detector

    async def _masked(self, records: Sequence[ChatRecord]) -> list[MaskedText]:
        texts = [r.content for r in records]
        try:
            found = await asyncio.gather(*(self._detector.detect(t) for t in texts))
        except Exception as exc:  # noqa: BLE001 - fail closed: seal the messages whole
            log.warning("PII detection failed before storing a turn: %s", type(exc).__name__)
            return [whole(t) for t in texts]
        items: list[tuple[str, Sequence[PiiSpan]]] = list(zip(texts, found, strict=True))
        return mask_turn(items)

    def _sealed(self, record: ChatRecord, masked: MaskedText) -> ChatRecord:
        sealed = self._cipher.seal(masked.values, user_id=record.user_id, context=_context(record))
        return replace(record, content=masked.text, sealed=sealed)

    async def seal_turn(self, records: Sequence[ChatRecord]) -> list[ChatRecord]:
        """The records as they are stored: placeholders in `content`, values sealed."""
        masked = await self._masked(records)
        return [self._sealed(r, m) for r, m in zip(records, masked, strict=True)]

    def opened(self, record: ChatRecord) -> ChatRecord:
        """The record with its values restored (a value no key opens stays a placeholder)."""
        if record.sealed is None:
            return record
        try:
            values = self._cipher.open(
                record.sealed, user_id=record.user_id, context=_context(record)
            )
        except SealError as error:
            log.warning("a stored history message could not be opened: %s", error)
            return replace(record, sealed=None)
        return replace(record, content=restore(record.content, values), sealed=None)

    async def reseal(self, record: ChatRecord) -> ChatRecord | None:
        """The record sealed with the current data key, or None when it already is (or no
        key opens it: it is left as it is). A message stored in the clear is masked and
        sealed; a sealed one keeps its placeholders and gets its values sealed anew."""
        if record.sealed is None:
            return (await self.seal_turn([record]))[0]
        if self._cipher.sealed_with_primary(record.sealed):
            return None
        context = _context(record)
        try:
            values = self._cipher.open(record.sealed, user_id=record.user_id, context=context)
        except SealError:
            return None
        return replace(
            record, sealed=self._cipher.seal(values, user_id=record.user_id, context=context)
        )

    # ------------------------------------------------------------ chat
    async def save_turn(self, records: Sequence[ChatRecord]) -> None:
        await self._inner.save_turn(await self.seal_turn(records))

    async def recent_history(
        self, user_id: str, *, since: datetime, limit: int, before: HistoryCursor | None = None
    ) -> list[ChatRecord]:
        stored = await self._inner.recent_history(user_id, since=since, limit=limit, before=before)
        return [self.opened(r) for r in stored]
