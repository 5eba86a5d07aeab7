"""The history outbox on disk: one JSON line per chat turn, durable before a call returns.

Blocking file I/O: callers run these methods in a worker thread (asyncio.to_thread).
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from pipelines.ports import ChatRecord

log = logging.getLogger(__name__)


class OutboxFile:
    """Append-only JSON-lines file of queued turns; rewritten atomically when drained."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, records: list[ChatRecord]) -> None:
        created = not self.path.exists()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            _write_all(fd, _encode(records))
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.path.parent)

    def load(self) -> list[list[ChatRecord]]:
        """Queued turns in order. A torn last line (a crash mid-append) is dropped and the
        file rewritten, so later appends start on a clean line."""
        if not self.path.exists():
            return []
        raw = self.path.read_bytes()
        turns: list[list[ChatRecord]] = []
        damaged = bool(raw) and not raw.endswith(b"\n")
        for line in raw.splitlines():
            if not line.strip():
                continue
            try:
                turns.append([_record(item) for item in json.loads(line)["turn"]])
            except (ValueError, KeyError, TypeError):
                damaged = True
        if damaged:
            log.warning("history outbox: dropped an incomplete line in %s", self.path.name)
            self.rewrite(turns)
        return turns

    def rewrite(self, turns: list[list[ChatRecord]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            _write_all(fd, b"".join(_encode(records) for records in turns))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, self.path)
        _fsync_dir(self.path.parent)


def _encode(records: list[ChatRecord]) -> bytes:
    items = [
        {
            "user_id": r.user_id,
            "role": r.role,
            "content": r.content,
            "created_at": r.created_at.isoformat(),
            "turn_id": r.turn_id,
            "route": r.route,
            "sealed": r.sealed,
        }
        for r in records
    ]
    return json.dumps({"turn": items}, ensure_ascii=False).encode() + b"\n"


def _record(item: dict[str, Any]) -> ChatRecord:
    return ChatRecord(
        user_id=item["user_id"],
        role=item["role"],
        content=item["content"],
        created_at=datetime.fromisoformat(item["created_at"]),
        turn_id=item["turn_id"],
        route=item.get("route"),
        sealed=item.get("sealed"),
    )


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
