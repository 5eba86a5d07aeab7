"""What an ingest run reports: per-document progress events and the final counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Action = Literal["added", "replaced", "skipped", "removed", "failed"]


@dataclass(frozen=True)
class ProgressEvent:
    doc_id: str
    action: Action
    done: int  # documents handled so far in this phase
    total: int
    chunks: int = 0
    detail: str = ""


@dataclass
class IngestReport:
    added: int = 0
    replaced: int = 0
    skipped: int = 0
    removed: int = 0
    chunks: int = 0  # children written in this run
    errors: list[tuple[str, str]] = field(default_factory=list)  # (doc id or path, reason)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "replaced": self.replaced,
            "skipped": self.skipped,
            "removed": self.removed,
            "chunks": self.chunks,
            "errors": [{"doc": doc, "reason": reason} for doc, reason in self.errors],
        }


Progress = Callable[[ProgressEvent], None]
