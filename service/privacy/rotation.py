"""`warden rotate-data-key`: re-seals every stored history message under a new data key.

Key file (no WARDEN_DATA_KEY): a new key is generated and written first in the file, before
the old one (a crash part way leaves both, so everything still opens; run it again); once
every message is re-sealed, the file keeps the new key only. WARDEN_DATA_KEY: set it to
"NEW,OLD" (every running process too), run the command, then set it to "NEW". With one key
there is nothing to rotate to, and the command only seals what is still in the clear.

History stored in the clear by a version before sealing is masked and sealed on the way
(until then it is read as it is, and it expires after 30 days like any history). The store
is compacted at the end, so no message sealed with the old key stays in its files. It needs
the history outbox empty (the store reachable)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pipelines.ports import AccountData, ChatRecord
from service.privacy.data_keys import key_file, load_keys, new_key, parse_keys, write_key_file


class Resealer(Protocol):
    async def reseal(self, record: ChatRecord) -> ChatRecord | None: ...


class RotationRefused(Exception):
    """The rotation cannot start (the message says why and what to do)."""


@dataclass
class RotationReport:
    users: int = 0
    resealed: int = 0  # sealed with an older key, now with the new one
    sealed_from_clear: int = 0  # stored in the clear by an older version
    unchanged: int = 0  # already under the new key, or opened by no key (left as they are)
    key_changed: bool = True
    key_source: str = "file"  # or "environment"


class Rotation:
    def __init__(
        self,
        data_dir: Path,
        configured: str | None,
        store: AccountData,
        replay_outbox: Callable[[], Awaitable[int]],
        queued_turns: Callable[[], Awaitable[int]],
        sealer: Callable[[list[bytes]], Resealer],
    ) -> None:
        self._data_dir = data_dir
        self._configured = configured
        self._store = store
        self._replay = replay_outbox
        self._queued = queued_turns
        self._sealer = sealer

    async def run(self) -> RotationReport:
        await self._replay()
        waiting = await self._queued()
        if waiting:
            raise RotationRefused(
                f"{waiting} chat turns wait in the history outbox for the store; "
                "run again once the store is reachable"
            )
        report = RotationReport()
        if self._configured:
            keys = parse_keys(self._configured)
            report.key_source, report.key_changed = "environment", len(keys) > 1
        else:
            keys = [new_key(), *load_keys(self._data_dir, None)]
            write_key_file(key_file(self._data_dir), keys)
        await self._reseal_all(self._sealer(keys), report)
        if not self._configured:
            write_key_file(key_file(self._data_dir), keys[:1])
        await self._store.compact()
        return report

    async def _reseal_all(self, sealer: Resealer, report: RotationReport) -> None:
        for user_id in await self._store.history_users():
            report.users += 1
            changed: list[ChatRecord] = []
            for record in await self._store.history_records(user_id):
                resealed = await sealer.reseal(record)
                if resealed is None:
                    report.unchanged += 1
                    continue
                if record.sealed is None:
                    report.sealed_from_clear += 1
                else:
                    report.resealed += 1
                changed.append(resealed)
            if changed:
                await self._store.rewrite_history(user_id, changed)
