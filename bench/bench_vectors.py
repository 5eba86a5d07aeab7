"""Vector index adapters compared: Qdrant Edge vs qdrant-client local mode (":memory:").

    python bench/bench_vectors.py [--points 1000 10000] [--queries 200] [--local-queries 20]

Random 384-d unit vectors; 90% core children, 10% temporary children spread over 20 users.
Prints upsert throughput and filtered dual_search latency (p50/p95, ms) for each adapter, and
the ratios measured in the same run. Edge is timed with queries in a worker thread (default),
inline, and after optimize() (HNSW built). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import summary  # noqa: E402
from pipelines.ports import IndexPoint, VectorIndex  # noqa: E402
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex  # noqa: E402
from service.adapters.vector.qdrant_server import QdrantServerIndex  # noqa: E402

DIM = 384
USERS = 20
NOW = datetime.now(UTC)
BATCH = 256
Runner = Callable[[], Awaitable[list[float]]]


def unit_vectors(n: int, rng: np.random.Generator) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def make_points(n: int, rng: np.random.Generator) -> list[IndexPoint]:
    vectors = unit_vectors(n, rng).tolist()
    points = []
    for i, vector in enumerate(vectors):
        temporary = i % 10 == 0
        payload = {
            "chunk_type": "child",
            "parent_id": f"doc{i // 20}:p{i // 5}",
            "parent_text": "parent " * 200,
            "text": "child " * 50,
            "doc_id": f"up{i // 20}" if temporary else f"doc{i // 20}",
            "source": f"doc{i // 20}.md",
            "page": i % 30,
            "is_temporary": temporary,
            "uploaded_by": f"user{(i // 10) % USERS}" if temporary else None,
            "expires_at": int(NOW.timestamp()) + (3600 if i % 20 else -3600) if temporary else None,
            "content_hash": f"h{i // 20}",
        }
        points.append(IndexPoint(f"p{i}", vector, payload))
    return points


async def upsert_seconds(index: VectorIndex, points: list[IndexPoint]) -> float:
    start = time.perf_counter()
    for i in range(0, len(points), BATCH):
        await index.upsert(points[i : i + BATCH])
    return time.perf_counter() - start


async def query_ms(index: VectorIndex, queries: list[list[float]]) -> list[float]:
    times = []
    for i, q in enumerate(queries):
        start = time.perf_counter()
        await index.dual_search(q, user_id=f"user{i % USERS}", now=NOW)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench_size(n: int, n_queries: int, n_local_queries: int) -> None:
    rng = np.random.default_rng(n)
    points = make_points(n, rng)
    queries = unit_vectors(n_queries, rng).tolist()
    rows: dict[str, tuple[float, float, float | None]] = {}  # name -> p50, p95, upsert pts/s

    async def timed(name: str, run: Runner, rate: float | None) -> None:
        await run()  # warm-up
        p50, p95 = summary(await run())
        rows[name] = (p50, p95, rate)

    with tempfile.TemporaryDirectory() as folder:
        edge = QdrantEdgeIndex.open(Path(folder) / "edge", DIM)
        edge_rate = n / await upsert_seconds(edge, points)
        await timed("edge (to_thread)", lambda: query_ms(edge, queries), edge_rate)
        edge.offload_queries = False
        await timed("edge (inline)", lambda: query_ms(edge, queries), None)
        start = time.perf_counter()
        await edge.optimize()
        optimize_s = time.perf_counter() - start
        edge.offload_queries = True
        await timed("edge optimized (to_thread)", lambda: query_ms(edge, queries), None)
        await edge.close()

    local = await QdrantServerIndex.connect(dimension=DIM, location=":memory:")
    local_rate = n / await upsert_seconds(local, points)
    few = queries[:n_local_queries]
    await timed("client local :memory:", lambda: query_ms(local, few), local_rate)
    await local.close()

    print(f"\n== {n} points, {DIM}-d, dual_search = 2 filtered queries in one batch")
    print(f"{'adapter':30} {'p50 ms':>9} {'p95 ms':>9} {'upsert pts/s':>13}")
    for name, (p50, p95, rate) in rows.items():
        print(f"{name:30} {p50:9.3f} {p95:9.3f} {'' if rate is None else f'{rate:13.0f}'}")
    print(f"edge optimize(): {optimize_s:.2f} s")
    local_p50, edge_p50 = rows["client local :memory:"][0], rows["edge (to_thread)"][0]
    print(f"ratio query p50 local/edge(to_thread): {local_p50 / edge_p50:.1f}x")
    print(f"ratio upsert rate edge/local: {edge_rate / local_rate:.1f}x")
    thread_cost = rows["edge (to_thread)"][0] - rows["edge (inline)"][0]
    print(f"to_thread cost per dual_search (p50 difference): {thread_cost:+.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200, help="dual_search calls on Edge")
    parser.add_argument("--local-queries", type=int, default=20, help="calls on local mode")
    args = parser.parse_args()
    for n in args.points:
        asyncio.run(bench_size(n, args.queries, args.local_queries))


if __name__ == "__main__":
    main()
