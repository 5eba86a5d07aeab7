"""Wiring for personal data at rest and a user's own data: the sealed history store, the
access rules, `/v1/me`, and what `warden users` and `warden rotate-data-key` open."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pipelines.ports import AccountData, PiiDetector, PiiSpan, Store, UserVectors, VectorIndex
from service.adapters.store.history_cipher import HistoryCipher
from service.adapters.store.history_outbox import OutboxChatStore
from service.adapters.store.sealed_history import SealedHistoryStore
from service.auth.access import AccessRules
from service.auth.admin import UserAdmin
from service.auth.passwords import Passwords
from service.chat import ChatService
from service.documents.service import DocumentService
from service.privacy.data_keys import load_keys
from service.privacy.files import owner_only
from service.privacy.me import MeService
from service.privacy.rotation import Rotation
from service.settings import Settings


def configured_keys(settings: Settings) -> list[bytes]:
    configured = settings.data_key.get_secret_value() if settings.data_key else None
    return load_keys(settings.data_dir, configured)


def sealed_history(
    settings: Settings, outbox: OutboxChatStore, detector: PiiDetector
) -> SealedHistoryStore:
    return SealedHistoryStore(outbox, HistoryCipher(configured_keys(settings)), detector)


def account_data(store: Store) -> AccountData | None:
    """The raw store's account part (a test fake may have none: /v1/me then answers 501)."""
    return store if isinstance(store, AccountData) else None


async def access_rules(store: Store) -> AccessRules:
    rules = AccessRules(account_data(store))
    await rules.refresh()
    return rules


def me_service(
    *,
    store: Store,
    index: VectorIndex,
    chat: ChatService,
    documents: DocumentService,
    access: AccessRules,
    outbox: OutboxChatStore,
) -> MeService:
    return MeService(
        chat=chat,
        documents=documents,
        accounts=account_data(store),
        vectors=index if isinstance(index, UserVectors) else None,
        access=access,
        forget_queued=outbox.forget_user,
    )


@asynccontextmanager
async def open_user_admin(settings: Settings) -> AsyncIterator[UserAdmin]:
    """`warden users`: the store and the access rules, closed on leaving."""
    from service.bootstrap.adapters import open_store

    owner_only(settings.data_dir)
    store = await open_store(settings)
    try:
        data = account_data(store)
        assert data is not None  # the production stores implement it
        yield UserAdmin(store, data, await access_rules(store), Passwords())
    finally:
        await store.close()


class _DetectorOnFirstUse:
    """Presidio loads in seconds; rotation needs it only for history stored in the clear."""

    def __init__(self) -> None:
        self._inner: PiiDetector | None = None

    async def detect(self, text: str) -> list[PiiSpan]:
        if self._inner is None:
            from service.bootstrap.adapters import open_detector

            self._inner = await open_detector()
        return await self._inner.detect(text)


@asynccontextmanager
async def open_rotation(
    settings: Settings, detector: PiiDetector | None = None
) -> AsyncIterator[Rotation]:
    """`warden rotate-data-key`: the store, the history outbox and the PII detector (for
    history stored in the clear before sealing existed)."""
    from service.bootstrap.adapters import open_store

    owner_only(settings.data_dir)
    store = await open_store(settings)
    try:
        data = account_data(store)
        assert data is not None
        outbox = OutboxChatStore(store, settings.data_dir / "outbox")
        configured = settings.data_key.get_secret_value() if settings.data_key else None
        finder = detector or _DetectorOnFirstUse()

        def sealer(keys: list[bytes]) -> SealedHistoryStore:
            return SealedHistoryStore(outbox, HistoryCipher(keys), finder)

        yield Rotation(
            settings.data_dir, configured, data, outbox.replay, outbox.queued_turns, sealer
        )
    finally:
        await store.close()
