"""Making deletions physical in a Qdrant Edge folder (erasing a user, DELETE /v1/me).

Deleting points only marks them: their payloads stay in the segment files until a vacuum
rebuilds the segment, and the operations that wrote them stay in the write-ahead log (wal/,
32 MB segment files) until it rolls over and the closed segment is acknowledged and dropped.
Edge keeps one closed segment, so `compact` writes two segments' worth of filler into a
sentinel point (then deletes it), flushes (the old segments are dropped), and optimizes with
a vacuum threshold low enough that any segment with a deleted point is rebuilt. The WAL
cannot simply be deleted: a new one restarts the operation numbers, and the segments would
then ignore every later update to a point they hold. Measured: ~1.3 s for the filler and
1-2 s for the optimize on a 2-core VM."""

from __future__ import annotations

import qdrant_edge as qe

from service.adapters.vector import filters as vf

WAL_SEGMENT_BYTES = 32 << 20
WAL_SEGMENTS_TO_ROLL = 2  # the open one, and the closed one Edge retains
_FILLER_BYTES = 1 << 20
SENTINEL = vf.point_uuid("__warden_wal_rollover__")
# any deleted point makes its segment due for a vacuum at the next optimize
OPTIMIZERS = qe.EdgeOptimizersConfig(deleted_threshold=1e-9, vacuum_min_vector_number=1)


def compact_shard(shard: qe.EdgeShard, dimension: int) -> None:
    """Blocking: run it in a worker thread."""
    vector = [0.0] * (dimension - 1) + [1.0]
    shard.update(qe.UpdateOperation.upsert_points([qe.Point(SENTINEL, vector, {})]))
    filler = {"filler": "x" * _FILLER_BYTES}
    rounds = WAL_SEGMENTS_TO_ROLL * WAL_SEGMENT_BYTES // _FILLER_BYTES + 4
    for _ in range(rounds):
        shard.update(qe.UpdateOperation.set_payload([SENTINEL], filler))
    shard.update(qe.UpdateOperation.delete_points([SENTINEL]))
    shard.flush()
    shard.optimize()
    shard.flush()
