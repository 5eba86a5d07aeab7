"""Which embedding model an index was built with, and rebuilding an index for another one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pipelines.ports.store import StoreUnavailable
from pipelines.ports.vector import Embedder, IndexPoint

REINDEX_COMMAND = "warden reindex"


@dataclass(frozen=True)
class EmbeddingModel:
    """What an index records about the vectors it holds."""

    name: str
    dimension: int

    def __str__(self) -> str:
        return f"'{self.name}' ({self.dimension} dimensions)"


def embedding_model(embedder: Embedder) -> EmbeddingModel:
    """The model an embedder speaks for: its `model_name` (else its class name) and dimension."""
    name = getattr(embedder, "model_name", None) or type(embedder).__name__
    return EmbeddingModel(str(name), int(embedder.dimension))


class EmbeddingModelMismatch(StoreUnavailable):
    """The index was built with another embedding model than the one configured."""

    def __init__(self, stored: EmbeddingModel, wanted: EmbeddingModel, where: str) -> None:
        self.stored, self.wanted = stored, wanted
        super().__init__(
            f"the vector index at {where} was built with the embedding model {stored}, but "
            f"Warden now embeds with {wanted}: its vectors cannot be compared. Run "
            f"`{REINDEX_COMMAND}` to re-embed the stored chunks with '{wanted.name}' (the source "
            f"files are not needed), or configure '{stored.name}' again."
        )


@dataclass(frozen=True)
class StoredChunk:
    """One indexed point as the index holds it: its port id and payload."""

    id: str
    payload: Mapping[str, Any]


@runtime_checkable
class IndexRebuild(Protocol):
    """A new index for another embedding model, filled beside the current one, which it
    replaces on `commit`. Until then the current index is untouched; `close` without `commit`
    discards the new one."""

    stored_model: EmbeddingModel | None  # what the current index recorded (None: nothing)

    def chunks(self) -> AsyncIterator[Sequence[StoredChunk]]:
        """Every point of the current index, page by page."""
        ...

    async def add(self, points: Sequence[IndexPoint]) -> None: ...

    async def commit(self) -> None:
        """Records the new model and puts the new index in the current one's place."""
        ...

    async def close(self) -> None: ...
