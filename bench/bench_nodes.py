"""Latency per node on the question path, with 1k and 10k child chunks indexed.

    python bench/bench_nodes.py [--sizes 1000 10000] [--repeats 3] [--noise 0.25]

Real adapters: ONNX MiniLM embedder, Presidio detector, Qdrant Edge index and mongoeco
(in-process, SQLite) store in a temporary folder, wired by `build_container` (metered ports,
history outbox, shipped safety rules with the toxicity scorer, keyword map); no chat model,
so `generate` answers in extractive mode (one embed_documents call over the top parents'
sentences). No logging is configured, so the JSON log tracer's INFO events are dropped.

Index: sample_kb/ is loaded and chunked by the ingestion code and its children embedded
with the real embedder (~180 real passages, ingestion payloads). They are replicated up to
each size: every copy gets its own doc/parent ids and the original vector plus Gaussian noise
of norm `--noise` (cosine ~0.97 to the original at 0.25), re-normalised, and the original's
sparse vector (so hybrid search walks 10k-long postings); 5% of the copies
are temporary uploads of 20 users (not expired). The index is not optimized (as after
`warden ingest`).

Each question (sample domain, some with personal data) runs `--repeats` times for 20 users
(history grows as turns are saved). The nodes are called directly, in path order, with a
`Runtime(context=deps)`; sub-steps are timed through timing proxies on the ports: mask
(Presidio over the question and the history window), embed (the expanded query), search (one
dual_search), and the rest of retrieve (keyword expansion, merge, sources). `history` is the
runner's history load before the graph; `pipeline.answer` is the whole request through the
compiled graph, for comparison. Prints p50/p95 (ms) per node and size. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ROOT, Samples, print_table  # noqa: E402
from ingestion.points import (  # noqa: E402
    content_hash,
    document_payload,
    embed_points,
    load_children,
    upsert_all,
)
from pipelines.metering import metering  # noqa: E402
from pipelines.nodes.classify import classify  # noqa: E402
from pipelines.nodes.generate import generate  # noqa: E402
from pipelines.nodes.post_process import post_process  # noqa: E402
from pipelines.nodes.retrieve import retrieve  # noqa: E402
from pipelines.ports import Embedder, IndexPoint, Message  # noqa: E402
from pipelines.state import ChatTurn  # noqa: E402
from pipelines.tracing import new_trace_id  # noqa: E402

USERS = 20
QUESTIONS = [
    "What is an FIR and how do I file one?",
    "Can the police refuse to register my complaint?",
    "How do I apply under RTI and what is the fee?",
    "Who can get free legal aid from NALSA?",
    "What is a Lok Adalat and is its award final?",
    "How do I get bail for a bailable offence?",
    "My landlord kept my deposit, my email is asha.rao@example.com, what can I do?",
    "Can my son be made to pay maintenance? Call me on +91 98765 43210.",
    "How do I report online fraud to the cyber crime cell?",
    "What protection does the domestic violence act give a woman?",
]
NODES: list[tuple[str, Callable[..., Awaitable[dict[str, Any]]]]] = [
    ("classify", classify),
    ("retrieve", retrieve),
    ("generate", generate),
    ("post_process", post_process),
]
ROWS = [
    "history (runner)",
    "classify",
    "retrieve",
    "  retrieve.mask",
    "  retrieve.embed",
    "  retrieve.search",
    "  retrieve.rest",
    "generate",
    "  generate.embed_sentences",
    "post_process",
    "  post_process.save_turn",
    "sum of the above",
    "pipeline.answer (graph)",
]


class Spans:
    """Per request: for each sub-step, the first start and the last end of its port calls."""

    def __init__(self) -> None:
        self.current: dict[str, tuple[float, float]] = {}

    def note(self, step: str, started: float, ended: float) -> None:
        first, last = self.current.get(step, (started, ended))
        self.current[step] = (min(first, started), max(last, ended))

    def flush(self, samples: Samples) -> None:
        for step, (first, last) in self.current.items():
            samples.add(step, (last - first) * 1000)
        self.current = {}


class Timed:
    """Forwards everything to `inner`; the async methods named in `steps` are timed."""

    def __init__(self, inner: Any, steps: dict[str, str], spans: Spans) -> None:
        self._inner, self._steps, self._spans = inner, steps, spans

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        step = self._steps.get(name)
        if step is None:
            return attr

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await attr(*args, **kwargs)
            finally:
                self._spans.note(step, started, time.perf_counter())

        return timed


async def base_points(embedder: Embedder) -> list[IndexPoint]:
    """sample_kb/ as `warden ingest` would index it (doc id = file name)."""
    points: list[IndexPoint] = []
    for path in sorted((ROOT / "sample_kb").iterdir()):
        data = path.read_bytes()
        children = await asyncio.to_thread(load_children, data, path.name, path.name)
        shared = document_payload(
            doc_id=path.name, source=path.name, digest=content_hash(data), is_temporary=False
        )
        points += await embed_points(children, shared, embedder)
    return points


def copied_payload(point: IndexPoint, copy: int, rng: Any, expires: int) -> dict[str, Any]:
    """A copy's payload: its own document and parent, and one in twenty an unexpired upload of
    one of the bench's users."""
    payload = dict(point.payload)
    payload["doc_id"] = f"{payload['doc_id']}~{copy}"
    payload["parent_id"] = f"{payload['parent_id']}~{copy}"
    if rng.random() < 0.05:
        payload.update(is_temporary=True, uploaded_by=f"u-bench-{copy % USERS}", expires_at=expires)
    return payload


def replicate(base: list[IndexPoint], size: int, noise: float, seed: int) -> list[IndexPoint]:
    rng = np.random.default_rng(seed)
    expires = int((datetime.now(UTC) + timedelta(days=1)).timestamp())
    points: list[IndexPoint] = []
    for n in range(size):
        copy, original = divmod(n, len(base))
        point = base[original]
        if copy == 0:
            points.append(point)
            continue
        vector = np.asarray(point.vector, dtype=np.float32)
        vector = vector + rng.standard_normal(vector.shape).astype(np.float32) * (
            noise / np.sqrt(vector.size)
        )
        payload = copied_payload(point, copy, rng, expires)
        unit = (vector / np.linalg.norm(vector)).tolist()
        points.append(IndexPoint(f"{point.id}~{copy}", unit, payload, point.sparse))
    return points


async def bench_size(
    size: int, base: list[IndexPoint], embedder: Embedder, detector: Any, args: argparse.Namespace
) -> tuple[Samples, float]:
    from langgraph.runtime import Runtime

    from service.adapters.store.mongo_open import open_embedded_store
    from service.adapters.vector.qdrant_edge import QdrantEdgeIndex
    from service.allowlist import rebuild_allowlist
    from service.bootstrap import build_container
    from service.settings import Settings

    spans, samples = Spans(), Samples()
    with tempfile.TemporaryDirectory() as tmp:
        index = QdrantEdgeIndex.open(Path(tmp) / "qdrant", embedder.dimension)
        started = time.perf_counter()
        await upsert_all(index, replicate(base, size, args.noise, seed=size))
        upsert_s = time.perf_counter() - started
        # as `warden ingest` does after a sync: corpus terms the detector flags stay unmasked
        await rebuild_allowlist(Path(tmp), [ROOT / "sample_kb"], index, detector)
        store = await open_embedded_store(Path(tmp))
        container = await build_container(
            Settings(data_dir=Path(tmp)),
            embedder=Timed(
                embedder,
                {
                    "embed_query": "  retrieve.embed",
                    "embed_documents": "  generate.embed_sentences",
                },
                spans,
            ),
            index=Timed(index, {"dual_search": "  retrieve.search"}, spans),
            detector=Timed(detector, {"detect": "  retrieve.mask"}, spans),
            store=Timed(store, {"save_turn": "  post_process.save_turn"}, spans),
        )
        try:
            deps = container.deps
            runtime = Runtime(context=deps)
            for n in range(args.repeats * len(QUESTIONS) + len(QUESTIONS)):
                question = QUESTIONS[n % len(QUESTIONS)]
                user = f"u-bench-{n % USERS}"
                await one_request(question, user, deps, runtime, samples, spans)
                started = time.perf_counter()
                pipeline = container.chat.pipeline
                verdict = pipeline.classify(question)
                await pipeline.answer(question, verdict, user_id=user, user_name="Asha Rao")
                samples.add("pipeline.answer (graph)", (time.perf_counter() - started) * 1000)
                if n < len(QUESTIONS):  # the first round is the warm-up
                    samples.by_name.clear()
        finally:
            await container.close()
    return samples, upsert_s


async def one_request(
    question: str, user: str, deps: Any, runtime: Any, samples: Samples, spans: Spans
) -> None:
    spans.current = {}
    with metering():
        started = time.perf_counter()
        since = deps.clock() - timedelta(days=deps.config.history_days)
        records = await deps.store.recent_history(
            user, since=since, limit=deps.config.history_window
        )
        samples.add("history (runner)", (time.perf_counter() - started) * 1000)
        history = tuple(Message(r.role, r.content) for r in records)
        turn = ChatTurn(question, user, "Asha Rao", new_trace_id(), started, history=history)
        state: dict[str, Any] = {"turn": turn}  # no verdict: the classify node makes it
        total = (time.perf_counter() - started) * 1000
        for name, node in NODES:
            started = time.perf_counter()
            state.update(await node(state, runtime))
            ms = (time.perf_counter() - started) * 1000
            samples.add(name, ms)
            total += ms
    samples.add(f"mode {state['answer'].mode}", 0.0)  # counted, not timed
    retrieve_ms = samples.by_name["retrieve"][-1]
    parts = ("  retrieve.mask", "  retrieve.embed", "  retrieve.search")
    known = sum(
        (spans.current[p][1] - spans.current[p][0]) * 1000 for p in parts if p in spans.current
    )
    samples.add("  retrieve.rest", retrieve_ms - known)
    samples.add("sum of the above", total)
    spans.flush(samples)


async def main(args: argparse.Namespace) -> None:
    from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder
    from service.adapters.pii.presidio_detector import PresidioPiiDetector

    embedder = OnnxMiniLmEmbedder()
    embedder.warm()
    detector = PresidioPiiDetector()
    detector.warm()
    started = time.perf_counter()
    base = await base_points(embedder)
    print(f"sample_kb: {len(base)} real children embedded in {time.perf_counter() - started:.1f} s")
    rows = []
    for size in args.sizes:
        samples, upsert_s = await bench_size(size, base, embedder, detector, args)
        modes = ", ".join(
            f"{name[5:]} {len(v)}"
            for name, v in samples.by_name.items()
            if name.startswith("mode ")
        )
        print(f"{size} children: upserted into Qdrant Edge in {upsert_s:.1f} s; answers: {modes}")
        for name in ROWS:
            values = samples.by_name.get(name, [])
            if values:
                p95 = sorted(values)[int(0.95 * len(values))]
                rows.append(
                    [size, name, len(values), f"{statistics.median(values):.2f}", f"{p95:.2f}"]
                )
    print_table(
        ["children", "node / step", "n", "p50 ms", "p95 ms"],
        rows,
        "question path per node (real ONNX embedder, Presidio, Qdrant Edge, mongoeco; extractive)",
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=3, help="rounds over the questions")
    parser.add_argument("--noise", type=float, default=0.25, help="norm of the added noise")
    asyncio.run(main(parser.parse_args()))
