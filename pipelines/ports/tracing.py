"""The tracer port, what one message cost (CallCounts), and a citation (Source)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Tracer(Protocol):
    """Receives one structured, already-masked event per request. Never raises."""

    def emit(self, event: Mapping[str, Any]) -> None: ...

    async def flush(self, timeout_s: float) -> None: ...


@dataclass
class CallCounts:
    """What one message cost, counted where the ports are called (SPEC section 4)."""

    llm: int = 0
    embed: int = 0
    vector: int = 0
    store: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"llm": self.llm, "embed": self.embed, "vector": self.vector, "store": self.store}


@dataclass(frozen=True)
class Source:
    source: str
    page: int | None
    parent_id: str
    preview: str
    score: float
    doc_id: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "page": self.page,
            "parent_id": self.parent_id,
            "preview": self.preview,
            "score": round(self.score, 4),
        }
