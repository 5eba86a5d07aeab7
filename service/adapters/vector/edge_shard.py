"""Qdrant Edge shard folders: the lock, the config, payload indexes, the recorded embedding
model (a small JSON file beside the shard), and swapping a shard built aside into place."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path
from typing import IO, Any

import qdrant_edge as qe

from pipelines.ports import EmbeddingModel, IndexPoint, SparseVector
from service.adapters.vector import filters as vf
from service.adapters.vector.edge_compact import OPTIMIZERS
from service.adapters.vector.filters import IndexLocked
from service.adapters.vector.model_stamp import read_stamp, stamp

LOCK_FILE = ".warden.lock"
MODEL_FILE = "embedding_model.json"
CONFIG_FILE = "edge_config.json"
LEGACY = ".legacy"
MIGRATING = ".migrating"
SCROLL_PAGE = 1024


def lock(path: Path) -> IO[str]:
    """Holds the folder (raises IndexLocked if another handle holds it); close to release."""
    handle = (path / LOCK_FILE).open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise IndexLocked(f"vector index folder {path} is already open elsewhere") from None
    return handle


def config(dimension: int) -> qe.EdgeConfig:
    sparse = qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)
    dense = qe.EdgeVectorParams(dimension, qe.Distance.Cosine)
    return qe.EdgeConfig(vectors=dense, sparse_vectors={vf.SPARSE: sparse}, optimizers=OPTIMIZERS)


def _index_schema(kind: vf.IndexKind) -> Any:
    if kind == "integer":
        return qe.IntegerIndexParams(lookup=False, range=True)
    return qe.PayloadSchemaType.Keyword


def ensure_payload_indexes(shard: qe.EdgeShard) -> None:
    indexed = shard.info().payload_schema
    for field, kind in vf.PAYLOAD_INDEXES.items():
        if field not in indexed:
            shard.update(qe.UpdateOperation.create_field_index(field, _index_schema(kind)))


def edge_filter(conditions: list[vf.Condition]) -> qe.Filter:
    must: list[Any] = []
    must_not: list[Any] = []
    for c in conditions:
        if c.equals is not None:
            condition = qe.FieldCondition(c.key, match=qe.MatchValue(c.equals))
        else:
            condition = qe.FieldCondition(c.key, range=qe.RangeFloat(gt=c.gt, lte=c.lte))
        (must_not if c.excluded else must).append(condition)
    return qe.Filter(must=must, must_not=must_not or None)


def sparse(vector: SparseVector) -> qe.SparseVector:
    return qe.SparseVector(list(vector.indices), list(vector.values))


def stored_point(point: IndexPoint, dimension: int) -> qe.Point:
    dense = vf.check_vector(point.vector, dimension)
    vector: Any = {"": dense, vf.SPARSE: sparse(point.sparse)} if point.sparse else dense
    return qe.Point(vf.point_uuid(point.id), vector, vf.stored_payload(point))


def read_model(path: Path) -> EmbeddingModel | None:
    try:
        return read_stamp(json.loads((path / MODEL_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def write_model(path: Path, model: EmbeddingModel) -> None:
    """Atomically: a crash leaves the old record or the new one, never half of one."""
    staged = path / f".{MODEL_FILE}.tmp"
    staged.write_text(json.dumps(stamp(model)), encoding="utf-8")
    os.replace(staged, path / MODEL_FILE)


def dimension_on_disk(path: Path) -> int | None:
    """The dense vector size of the shard in `path` (None: no shard, or unreadable)."""
    try:
        document = json.loads((path / CONFIG_FILE).read_text(encoding="utf-8"))
        size = document["vectors"][""]["size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) else None


def swap_in(path: Path, staged: Path) -> None:
    """Replaces the shard in `path` with the one built in `staged` (a child of `path`)."""
    legacy = path / LEGACY
    shutil.rmtree(legacy, ignore_errors=True)
    legacy.mkdir()
    for entry in path.iterdir():
        if entry.name != LOCK_FILE and entry not in (staged, legacy):
            entry.rename(legacy / entry.name)
    for entry in staged.iterdir():
        entry.rename(path / entry.name)
    staged.rmdir()
    shutil.rmtree(legacy)


def migrate(path: Path, dimension: int) -> None:
    """Copies a shard without the sparse vector into one with it, in place (see qdrant_edge.py)."""
    old = qe.EdgeShard.load(str(path))
    new_path = path / MIGRATING
    shutil.rmtree(new_path, ignore_errors=True)
    new = qe.EdgeShard.create(str(new_path), config(dimension))
    offset: Any = None
    while True:
        request = qe.ScrollRequest(
            offset=offset, limit=SCROLL_PAGE, with_payload=True, with_vector=True
        )
        page, offset = old.scroll(request)
        points = [qe.Point(r.id, r.vector, r.payload) for r in page]  # type: ignore[arg-type]
        if points:
            new.update(qe.UpdateOperation.upsert_points(points))
        if offset is None:
            break
    old.close()
    new.close()
    if (path / MODEL_FILE).exists():
        shutil.copy2(path / MODEL_FILE, new_path / MODEL_FILE)
    swap_in(path, new_path)
