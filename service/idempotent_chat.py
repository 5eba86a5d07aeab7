"""IdempotentChats: a chat sent with an `Idempotency-Key` runs once per user and key.

A retry with the same key and the same message within 24 hours gets the stored answer (a
stream replays it as a stream) and stores nothing new; a retry while the first request still
runs waits for its answer (up to `wait_s`, then 409 `idempotency_key_in_use`); the same key
with another message is 409 `idempotency_key_reused`. Another user's key is another record.
Of concurrent requests with one key, the store lets exactly one claim it. The chat's history
turn is filed under an id derived from the key, so even a request run twice (its claim went
stale: the process died before storing the answer) stores its turn once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from pipelines.outcome import ChatOutcome
from pipelines.ports import (
    CallCounts,
    IdempotencyRecord,
    IdempotencyStore,
    Source,
    StoreUnavailable,
)
from service.answer import answer_dict
from service.auth.tokens import Principal
from service.chat import AcceptedMessage, ChatService
from service.chat_events import ChatEvent, Started, closing_events
from service.errors import ServiceError
from service.idempotency_keys import KeyedRequest

log = logging.getLogger("warden.idempotency")
KEEP_FOR = timedelta(hours=24)
STALE_AFTER = timedelta(minutes=10)  # a claim this old without an answer: its request died
WAIT_S, POLL_S = 30.0, 0.1


def outcome_of(answer: Mapping[str, Any]) -> ChatOutcome:
    """A stored answer (the JSON of POST /v1/chat) as the outcome it came from."""
    return ChatOutcome(
        route=answer["route"],
        mode=answer["mode"],
        response=answer["response"],
        confidence=answer["confidence"],
        sources=[Source(**source) for source in answer["sources"]],
        pii_found=answer["pii_found"],
        pii_entities=list(answer["pii_entities"]),
        safe_query=answer["safe_query"],
        latency_ms=answer["latency_ms"],
        calls=CallCounts(**answer["calls"]),
        trace_id=answer["trace_id"],
    )


def replayed(outcome: ChatOutcome) -> Iterator[ChatEvent]:
    """A stored answer as the events of a stream: meta, the whole answer as one token, done."""
    yield Started(outcome.route, outcome.trace_id)
    yield from closing_events("", outcome)


async def _events(events: Iterator[ChatEvent]) -> AsyncIterator[ChatEvent]:
    for event in events:
        yield event


class IdempotentChats:
    def __init__(
        self,
        chat: ChatService,
        records: IdempotencyStore,
        clock: Callable[[], datetime],
        *,
        wait_s: float = WAIT_S,
        poll_s: float = POLL_S,
    ) -> None:
        self.chat = chat
        self.records = records
        self._clock = clock
        self._wait_s = wait_s
        self._poll_s = poll_s

    async def answer(self, caller: Principal, message: AcceptedMessage, key: str) -> ChatOutcome:
        keyed = KeyedRequest.of(caller.user_id, key, message.text)
        stored = await self._claim(caller, keyed)
        if stored is not None:
            return stored
        outcome = None
        try:
            outcome = await self.chat.answer(caller, message, turn_id=keyed.turn_id)
        finally:
            await self._settle(caller, keyed, outcome)
        return outcome

    async def stream(
        self, caller: Principal, message: AcceptedMessage, key: str
    ) -> AsyncIterator[ChatEvent]:
        """Claims the key now (raising its refusals before any event), then the events: the
        chat's, or a finished chat's replay."""
        keyed = KeyedRequest.of(caller.user_id, key, message.text)
        stored = await self._claim(caller, keyed)
        if stored is not None:
            return _events(replayed(stored))

        async def settle(outcome: ChatOutcome | None) -> None:
            await self._settle(caller, keyed, outcome)

        return self.chat.stream(caller, message, turn_id=keyed.turn_id, settle=settle)

    async def _claim(self, caller: Principal, keyed: KeyedRequest) -> ChatOutcome | None:
        """None once this request holds the key; the stored outcome if one completed."""
        deadline = asyncio.get_running_loop().time() + self._wait_s
        while True:
            now = self._clock()
            mine = IdempotencyRecord(caller.user_id, keyed.record_key, keyed.fingerprint, now)
            try:
                held = await self.records.claim(
                    mine, stale_before=now - STALE_AFTER, expired_before=now - KEEP_FOR
                )
            except StoreUnavailable:
                raise ServiceError(
                    "store_unavailable", "The idempotency store is unavailable; retry later.", 503
                ) from None
            if held is None:
                return None
            if held.fingerprint != keyed.fingerprint:
                raise ServiceError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was sent with another message; use a new key.",
                    409,
                )
            if held.answer is not None:
                return outcome_of(json.loads(keyed.open(held.answer)))
            if asyncio.get_running_loop().time() >= deadline:
                raise ServiceError(
                    "idempotency_key_in_use",
                    "A request with this Idempotency-Key is still running; retry shortly.",
                    409,
                    headers={"Retry-After": "1"},
                )
            await asyncio.sleep(self._poll_s)

    async def _settle(
        self, caller: Principal, keyed: KeyedRequest, outcome: ChatOutcome | None
    ) -> None:
        """Stores the answer, or frees the key when the chat failed (never raises: a record
        left pending goes stale, and a retry then runs the request again)."""
        try:
            if outcome is None:
                await self.records.release(caller.user_id, keyed.record_key)
            else:
                sealed = keyed.seal(json.dumps(answer_dict(outcome)))
                await self.records.complete(caller.user_id, keyed.record_key, sealed)
        except Exception as exc:  # noqa: BLE001 - the answer itself is not lost
            log.warning("idempotency record not settled: %s", type(exc).__name__)
