"""The embedding model an index records (SDK-free): the fields it is stored as, and the check
made when an index is opened."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.ports import EmbeddingModel, EmbeddingModelMismatch

MODEL_KEY = "warden_embedding_model"
DIMENSION_KEY = "warden_embedding_dimension"
UNRECORDED = "unrecorded"  # the name shown for an index older than model records


def stamp(model: EmbeddingModel) -> dict[str, Any]:
    return {MODEL_KEY: model.name, DIMENSION_KEY: model.dimension}


def read_stamp(fields: Mapping[str, Any] | None) -> EmbeddingModel | None:
    """The recorded model, or None when the fields hold no (valid) record."""
    fields = fields or {}
    name, dimension = fields.get(MODEL_KEY), fields.get(DIMENSION_KEY)
    if not isinstance(name, str) or not isinstance(dimension, int) or isinstance(dimension, bool):
        return None
    return EmbeddingModel(name, dimension)


def needs_stamp(
    stored: EmbeddingModel | None,
    wanted: EmbeddingModel,
    *,
    dimension_found: int | None,
    where: str,
) -> bool:
    """Whether `wanted` must be recorded now (a new index, or one older than model records).

    Raises EmbeddingModelMismatch when the index holds another model's vectors: a recorded
    model that differs, or (nothing recorded) vectors of another dimension."""
    if stored is not None:
        if stored != wanted:
            raise EmbeddingModelMismatch(stored, wanted, where)
        return False
    if dimension_found is not None and dimension_found != wanted.dimension:
        raise EmbeddingModelMismatch(EmbeddingModel(UNRECORDED, dimension_found), wanted, where)
    return True
