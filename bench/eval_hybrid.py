"""Hybrid retrieval and the answer gate on dev and test splits (bench/_hybrid_sets.py).

    PYTHONPATH=. python bench/eval_hybrid.py capture [--cache /tmp/warden-hybrid.pkl]
    PYTHONPATH=. python bench/eval_hybrid.py report  [--cache ...]

`capture` indexes each corpus (ingestion's chunking, MiniLM ONNX, Qdrant Edge, the allowlist as
`warden ingest` builds it), asks every question through the real `retrieve` node (shipped
configuration: top_parents 5, no keyword map) and keeps, per question, the naive rankings
(bench/eval_retrieval.py: numpy dense cosine, Okapi BM25, RRF k=60 over the raw question), the
node's sources and signals, and its dual search fetched DEEP children deep (the node itself
sees the first `core_limit`, as in the service), so `tune_fusion.py` can replay other fusions.
`report` prints the recall table (every retriever per set and split) from the cache.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._hybrid_sets import Corpus, Question, corpora  # noqa: E402
from bench.eval_retrieval import bm25_scores, docs_ranked, metrics  # noqa: E402
from ingestion.indexer import sync_folder  # noqa: E402
from ingestion.points import load_children  # noqa: E402
from pipelines.deps import PipelineConfig, PipelineDeps  # noqa: E402
from pipelines.nodes.retrieve import retrieve  # noqa: E402
from pipelines.ports import DualSearchResult  # noqa: E402
from pipelines.state import ChatTurn  # noqa: E402
from prompts import PromptBook  # noqa: E402
from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder  # noqa: E402
from service.adapters.pii.presidio_detector import PresidioPiiDetector  # noqa: E402
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex  # noqa: E402
from service.allowlist import rebuild_allowlist  # noqa: E402
from service.pipeline_config import load_allowlist  # noqa: E402

DEEP = 60
CACHE = Path(tempfile.gettempdir()) / "warden-hybrid.pkl"
NAIVE = ["naive dense", "naive BM25", "naive RRF"]
_WORD = re.compile(r"\w+")


@dataclass
class Asked:
    question: Question
    corpus: str
    naive: dict[str, list[str]]  # retriever -> doc ids, best first
    warden: list[str]  # the node's sources (doc ids)
    confidence: float
    signals: dict[str, float]
    found: DualSearchResult  # DEEP deep
    ms: float = 0.0
    search_text: str = ""  # the masked question the node searched with (coverage signals)


@dataclass
class Capture:
    """Wraps the index: searches DEEP deep, keeps that, hands the node what it asked for."""

    inner: Any
    found: list[DualSearchResult] = field(default_factory=list)

    async def dual_search(self, vector: Any, **options: Any) -> DualSearchResult:
        core, personal = options["core_limit"], options["personal_limit"]
        deep = {**options, "core_limit": max(core, DEEP), "personal_limit": max(personal, DEEP)}
        found = await self.inner.dual_search(vector, **deep)
        self.found.append(found)
        return DualSearchResult(
            found.core[:core], found.personal[:personal],
            found.core_sparse[:core], found.personal_sparse[:personal],
        )  # fmt: skip


async def capture_corpus(corpus: Corpus, root: Path, embedder: Any, detector: Any) -> list[Asked]:
    kb = corpus.folder or root / corpus.name / "kb"
    (root / corpus.name).mkdir(parents=True, exist_ok=True)
    for doc_id, text in corpus.texts.items():
        (kb / doc_id).parent.mkdir(parents=True, exist_ok=True)
        (kb / doc_id).write_text(text + "\n", encoding="utf-8")
    index = await asyncio.to_thread(QdrantEdgeIndex.open, root / corpus.name / "qdrant", 384)
    started = time.perf_counter()
    await sync_folder([kb], embedder, index)
    await rebuild_allowlist(root / corpus.name, [kb], index, detector)
    files = sorted(p for p in kb.rglob("*") if p.is_file())
    children = [
        (doc_id, c.text)
        for path in files
        for doc_id in [str(path.relative_to(kb))]
        for c in load_children(path.read_bytes(), path.name, doc_id)
    ]
    owner = [d for d, _ in children]
    matrix = np.array(await embedder.embed_documents([t for _, t in children]))
    words = [_WORD.findall(t.lower()) for _, t in children]
    took = time.perf_counter() - started
    print(f"{corpus.name}: {len(files)} docs, {len(children)} children,"
          f" {len(corpus.questions)} questions, indexed in {took:.0f} s")  # fmt: skip
    allowlist = load_allowlist(root / corpus.name)
    config = PipelineConfig(keyword_map={}, allowlist=allowlist, top_parents=5)
    capture = Capture(index)
    deps = PipelineDeps(embedder, capture, detector, None, None, None, PromptBook.load(), config)  # type: ignore[arg-type]
    runtime = Runtime(context=deps)
    asked = []
    for n, question in enumerate(corpus.questions):
        q = np.array(await embedder.embed_query(question.text))
        dense = np.argsort(-(matrix @ q), kind="stable")
        sparse = np.argsort(
            -bm25_scores(words, _WORD.findall(question.text.lower())), kind="stable"
        )
        fused: dict[int, float] = {}
        for order in (dense[:100], sparse[:100]):
            for rank, i in enumerate(order, start=1):
                fused[int(i)] = fused.get(int(i), 0.0) + 1 / (60 + rank)
        both = sorted(fused, key=lambda i: -fused[i])
        naive = dict(
            zip(NAIVE, (docs_ranked(list(o), owner) for o in (dense, sparse, both)), strict=True)
        )
        turn = ChatTurn(question.text, "eval", "", f"t{n}", time.perf_counter())
        started = time.perf_counter()
        found = (await retrieve({"turn": turn}, runtime))["retrieval"]
        ms = (time.perf_counter() - started) * 1000
        assert found.error is None, found.error
        sources = list(dict.fromkeys(s.doc_id for s in found.sources))
        asked.append(Asked(question, corpus.name, naive, sources, found.confidence,
                           dict(found.signals), capture.found[-1], ms,
                           found.search_text))  # fmt: skip
    await index.close()
    return asked


async def capture_all(cache: Path) -> None:
    embedder = OnnxMiniLmEmbedder()
    detector = await asyncio.to_thread(PresidioPiiDetector)
    asked: list[Asked] = []
    with tempfile.TemporaryDirectory(prefix="warden-hybrid-") as folder:
        for corpus in corpora():
            asked += await capture_corpus(corpus, Path(folder), embedder, detector)
    await asyncio.to_thread(cache.write_bytes, pickle.dumps(asked))
    print(f"{len(asked)} questions captured in {cache}")


class _Unpickler(pickle.Unpickler):
    """`capture` runs as __main__: its classes are found here whoever loads the cache."""

    def find_class(self, module: str, name: str) -> Any:
        return super().find_class(__name__ if module == "__main__" else module, name)


def load(cache: Path) -> list[Asked]:
    with cache.open("rb") as file:
        return list(_Unpickler(file).load())  # our own file


def groups(asked: list[Asked]) -> dict[tuple[str, str], list[Asked]]:
    """(corpus, split) -> its in-scope questions, in a stable order."""
    out: dict[tuple[str, str], list[Asked]] = {}
    for a in asked:
        if a.question.doc_id is not None:
            out.setdefault((a.corpus, a.question.split), []).append(a)
    return out


def table(rows: dict[tuple[str, str], dict[str, Any]], tuned: str) -> str:
    lines = [
        "| set | split | questions | retriever | recall@1 | recall@3 | recall@5 | MRR |",
        "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for (name, split), runs in rows.items():
        label = f"{split} ({tuned})" if split == "dev" else split
        for retriever, ranked in runs["ranked"].items():
            m = metrics(ranked, runs["gold"])
            cells = " | ".join(f"{m[c]:.3f}" for c in ("r@1", "r@3", "r@5", "mrr"))
            lines.append(f"| {name} | {label} | {len(runs['gold'])} | {retriever} | {cells} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("mode", choices=["capture", "report"])
    parser.add_argument("--cache", type=Path, default=CACHE)
    args = parser.parse_args()
    if args.mode == "capture":
        asyncio.run(capture_all(args.cache))
        return
    rows: dict[tuple[str, str], Any] = {}
    for key, members in groups(load(args.cache)).items():
        ranked = {r: [a.naive[r] for a in members] for r in NAIVE}
        ranked["warden"] = [a.warden for a in members]
        rows[key] = {"ranked": ranked, "gold": [a.question.doc_id for a in members]}
    print(table(rows, "tuned on"))


if __name__ == "__main__":
    main()
