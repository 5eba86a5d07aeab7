"""When opening an index records the model, accepts it, or refuses it (a pure decision)."""

from __future__ import annotations

import pytest

from pipelines.ports import EmbeddingModel, EmbeddingModelMismatch, embedding_model
from service.adapters.vector.model_stamp import needs_stamp, read_stamp, stamp
from tests.fakes.embedder import FakeEmbedder

MINI = EmbeddingModel("all-MiniLM-L6-v2-int8", 384)
MPNET = EmbeddingModel("all-mpnet-base-v2", 768)
RENAMED = EmbeddingModel("other-384", 384)


@pytest.mark.parametrize(
    ("stored", "found", "outcome"),
    [
        (None, None, "record"),  # a new index
        (None, 384, "record"),  # older than model records, same size: taken as this model
        (MINI, 384, "accept"),
        (None, 768, "'unrecorded' (768 dimensions)"),
        (MPNET, 768, "'all-mpnet-base-v2' (768 dimensions)"),
        (RENAMED, 384, "'other-384' (384 dimensions)"),  # same size, another model
    ],
)
def test_open_records_accepts_or_refuses(
    stored: EmbeddingModel | None, found: int | None, outcome: str
) -> None:
    if outcome in ("record", "accept"):
        assert needs_stamp(stored, MINI, dimension_found=found, where="x") is (outcome == "record")
        return
    with pytest.raises(EmbeddingModelMismatch) as refused:
        needs_stamp(stored, MINI, dimension_found=found, where="data/qdrant")
    message = str(refused.value)
    assert outcome in message and str(MINI) in message
    assert "data/qdrant" in message and "`warden reindex`" in message


@pytest.mark.parametrize(
    "fields",
    [
        None,
        {},
        {"warden_embedding_model": "m"},
        {"warden_embedding_model": 3, "warden_embedding_dimension": 8},
        {"warden_embedding_model": "m", "warden_embedding_dimension": True},
    ],
)
def test_an_invalid_record_reads_as_none(fields: dict[str, object] | None) -> None:
    assert read_stamp(fields) is None


def test_a_record_reads_back_and_embedders_name_their_model() -> None:
    assert read_stamp(stamp(MPNET)) == MPNET
    assert embedding_model(FakeEmbedder(dimension=8)) == EmbeddingModel("FakeEmbedder", 8)
