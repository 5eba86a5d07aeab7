"""The question path at size: Qdrant Edge with its HNSW index built, against the naive
local-mode pipeline (issue 14, acceptance 2).

    python bench/scale.py [--sizes 1000 10000 100000] [--naive-sizes 1000 10000] [--repeats 3]

Children: sample_kb/ chunked and embedded for real by the ingestion code (~180 passages),
then copies up to each size, made batch by batch (as bench/bench_nodes.py makes them: own
doc/parent ids, the original vector plus Gaussian noise of norm 0.25, the original's sparse
vector and payload, 5% temporary uploads of 20 users). Edge: the copies are upserted, then
`optimize()` builds the HNSW index; its time and the shard's segments and indexed vectors are
printed. Naive: the same points in qdrant-client's local mode (pure Python, exact search).

Each index is wired by `build_container` with the real ONNX embedder, Presidio and the
embedded store in a temporary folder, no chat model (extractive answers). Questions: the ten
of bench_nodes.py, one warm-up round, then `--repeats` rounds over 20 users (sentence
vectors are cached after the warm-up, as on a service that has answered before). Timed:
`pipeline.answer` through the compiled graph, and one `dual_search` call alone. Prints
p50/p95 in ms, the ratio of the naive pipeline at the largest naive size to Edge at each
size, and the process's peak RSS. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ROOT, percentile, print_table  # noqa: E402
from bench.bench_nodes import QUESTIONS, USERS, base_points, copied_payload  # noqa: E402
from pipelines.ports import Embedder, IndexPoint, PiiDetector, VectorIndex  # noqa: E402

BATCH = 1024
NOISE = 0.25


def copies(base: list[IndexPoint], size: int, seed: int) -> Iterator[list[IndexPoint]]:
    """`size` points in batches: the originals first, then noisy copies (see module doc)."""
    rng = np.random.default_rng(seed)
    expires = int((datetime.now(UTC) + timedelta(days=1)).timestamp())
    vectors = np.asarray([p.vector for p in base], dtype=np.float32)
    for first in range(0, size, BATCH):
        numbers = range(first, min(size, first + BATCH))
        picks = np.asarray([n % len(base) for n in numbers])
        noisy = vectors[picks] + rng.standard_normal((len(picks), vectors.shape[1])).astype(
            np.float32
        ) * (NOISE / np.sqrt(vectors.shape[1]))
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        batch = []
        for n, original, vector in zip(numbers, picks, noisy, strict=True):
            point, copy = base[original], n // len(base)
            if copy == 0:
                batch.append(point)
                continue
            payload = copied_payload(point, copy, rng, expires)
            batch.append(IndexPoint(f"{point.id}~{copy}", vector.tolist(), payload, point.sparse))
        yield batch


async def fill(index: VectorIndex, base: list[IndexPoint], size: int) -> float:
    started = time.perf_counter()
    for batch in copies(base, size, seed=size):
        await index.upsert(batch)
    return time.perf_counter() - started


async def questions(
    index: VectorIndex, data: Path, embedder: Embedder, detector: PiiDetector, repeats: int
) -> tuple[list[float], list[float]]:
    """(pipeline.answer ms, dual_search ms) per question after the warm-up round."""
    from service.allowlist import rebuild_allowlist
    from service.bootstrap import build_container
    from service.settings import Settings

    await rebuild_allowlist(data, [ROOT / "sample_kb"], index, detector)
    container = await build_container(
        Settings(_env_file=None, data_dir=data),  # type: ignore[call-arg]
        embedder=embedder,
        index=index,
        detector=detector,
    )
    answers: list[float] = []
    searches: list[float] = []
    try:
        pipeline = container.chat.pipeline
        for n in range((repeats + 1) * len(QUESTIONS)):
            question, user = QUESTIONS[n % len(QUESTIONS)], f"u-bench-{n % USERS}"
            vector = await embedder.embed_query(question)
            started = time.perf_counter()
            await index.dual_search(vector, user_id=user, now=datetime.now(UTC))
            search_ms = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            verdict = pipeline.classify(question)
            await pipeline.answer(question, verdict, user_id=user, user_name="Asha Rao")
            if n >= len(QUESTIONS):  # the first round is the warm-up
                answers.append((time.perf_counter() - started) * 1000)
                searches.append(search_ms)
    finally:
        await container.close()
    return answers, searches


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def edge_size(
    size: int, base: list[IndexPoint], models: tuple[Embedder, PiiDetector], repeats: int
) -> list[Any]:
    from service.adapters.vector.qdrant_edge import QdrantEdgeIndex

    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        index = QdrantEdgeIndex.open(Path(tmp) / "qdrant", models[0].dimension)
        upsert_s = await fill(index, base, size)
        started = time.perf_counter()
        await index.optimize()
        optimize_s = time.perf_counter() - started
        built = index.index_info()
        print(
            f"edge {size:,}: upsert {upsert_s:.1f} s, optimize {optimize_s:.1f} s; "
            f"{built.points:,} points in {built.segments} segment(s), {built.hnsw_segments} with "
            f"an HNSW graph; {built.indexed:,} vectors indexed (dense in HNSW + sparse)"
        )
        answers, searches = await questions(index, Path(tmp), models[0], models[1], repeats)
    return ["edge (HNSW built)", size, answers, searches]


async def naive_size(
    size: int, base: list[IndexPoint], models: tuple[Embedder, PiiDetector], repeats: int
) -> list[Any]:
    from service.adapters.vector.qdrant_server import QdrantServerIndex

    index = await QdrantServerIndex.connect(dimension=models[0].dimension, location=":memory:")
    upsert_s = await fill(index, base, size)
    print(f"naive local mode {size:,}: upsert {upsert_s:.1f} s")
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        answers, searches = await questions(index, Path(tmp), models[0], models[1], repeats)
    return ["naive (qdrant-client local mode)", size, answers, searches]


async def main(args: argparse.Namespace) -> None:
    from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder
    from service.adapters.pii.presidio_detector import PresidioPiiDetector

    embedder = OnnxMiniLmEmbedder()
    embedder.warm()
    detector = PresidioPiiDetector()
    detector.warm()
    base = await base_points(embedder)
    print(f"sample_kb: {len(base)} real children embedded")
    runs = [await naive_size(n, base, (embedder, detector), args.repeats) for n in args.naive_sizes]
    for size in args.sizes:
        runs.append(await edge_size(size, base, (embedder, detector), args.repeats))
        print(f"peak RSS of this process so far: {peak_rss_mib():,.0f} MiB")
    rows = []
    for name, size, answers, searches in runs:
        rows.append(
            [
                name,
                size,
                len(answers),
                f"{statistics.median(answers):.1f}",
                f"{percentile(answers, 95):.1f}",
                f"{statistics.median(searches):.2f}",
            ]
        )
    print_table(
        ["index", "children", "n", "answer p50 ms", "answer p95 ms", "dual_search p50 ms"],
        rows,
        "question path without a model (ONNX embedder, Presidio, embedded store, extractive)",
    )
    naive = [r for r in runs if r[0].startswith("naive")]
    if naive:
        name, size, answers, _ = naive[-1]
        baseline = statistics.median(answers)
        for run in runs:
            if run[0].startswith("edge"):
                ratio = baseline / statistics.median(run[2])
                print(f"naive at {size:,} / edge at {run[1]:,} (answer p50): {ratio:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--naive-sizes", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=3, help="rounds over the questions")
    asyncio.run(main(parser.parse_args()))
