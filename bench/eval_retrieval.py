"""Recall of the right document: naive dense, naive BM25, naive RRF and Warden's retrieve path.

    PYTHONPATH=. python bench/eval_retrieval.py [--sets nyt amazon faq] [--docs 1000]
                                               [--questions 500] [--tune reddit]

Sets (third-party, offline): SQuAD-shifts `nyt`, `amazon`, `reddit` (squad_shifts in the PyPI
sdist of `bigbench`: `pip download --no-deps --no-clean bigbench` keeps the unpacked sdist in
/tmp; copy bigbench/benchmark_tasks/squad_shifts/{nyt,amazon_reviews,reddit}_v1.0.json into
~/.cache/warden-eval/squad_shifts/) and `faq`, the Python FAQ (bench/_faq_corpus.py, answer
documents without their question). SQuAD v1.1 dev and `new_wiki` are held out: never used here.
One document per paragraph (the first `--docs`), questions spread evenly over them.

All four retrievers see the same children (ingestion's chunking) and the same MiniLM ONNX model.
Naive ones are computed here with numpy over the raw question: dense = cosine, BM25 = Okapi
(k1 1.2, b 0.75, lower-cased words), RRF = 1/(60 + rank) over both child rankings; a document
ranks where its best child does. Warden = the real `retrieve` node (Presidio + allowlist built
by `rebuild_allowlist`, hybrid dual_search on Qdrant Edge, pipelines/fusion.py), top_parents 5;
`warden dense-only` is the same path with the sparse query withheld. `--tune SET` prints the
recall of other sparse shares on SET's captured searches (the shipped share was tuned on
the dev splits of bench/eval_hybrid.py, see bench/tune_fusion.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import print_table  # noqa: E402
from bench._faq_corpus import faq_pairs  # noqa: E402
from ingestion.indexer import sync_folder  # noqa: E402
from ingestion.points import load_children  # noqa: E402
from pipelines.deps import PipelineConfig, PipelineDeps  # noqa: E402
from pipelines.fusion import Ranked, fuse  # noqa: E402
from pipelines.nodes.retrieve import retrieve  # noqa: E402
from pipelines.state import ChatTurn  # noqa: E402
from prompts import PromptBook  # noqa: E402
from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder  # noqa: E402
from service.adapters.pii.presidio_detector import PresidioPiiDetector  # noqa: E402
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex  # noqa: E402
from service.allowlist import rebuild_allowlist  # noqa: E402
from service.pipeline_config import load_allowlist  # noqa: E402

SHIFTS = Path.home() / ".cache" / "warden-eval" / "squad_shifts"
FILES = {"nyt": "nyt_v1.0.json", "amazon": "amazon_reviews_v1.0.json", "reddit": "reddit_v1.0.json"}
RETRIEVERS = ["naive dense", "naive BM25", "naive dense+BM25 RRF", "warden dense-only", "warden"]
_WORD = re.compile(r"\w+")
Question = tuple[str, str]  # (question, doc_id)


def load_set(name: str, docs: int, questions: int) -> tuple[dict[str, str], list[Question]]:
    if name == "faq":
        pairs = faq_pairs()
        return {p.doc_id: p.answer for p in pairs}, [(p.question, p.doc_id) for p in pairs]
    path = SHIFTS / FILES[name]
    if not path.is_file():
        sys.exit(f"{path} not found (see this script's docstring)")
    paragraphs = [p for a in json.loads(path.read_text())["data"] for p in a["paragraphs"]][:docs]
    texts = {f"{n:05d}.txt": p["context"] for n, p in enumerate(paragraphs)}
    asked = [(q["question"], f"{n:05d}.txt") for n, p in enumerate(paragraphs) for q in p["qas"]]
    step = max(len(asked) / questions, 1.0)
    return texts, [asked[int(i * step)] for i in range(min(questions, len(asked)))]


def bm25_scores(children: list[list[str]], query: list[str]) -> np.ndarray:
    lengths = np.array([len(c) for c in children], dtype=float)
    having = Counter(t for c in children for t in set(c))
    scores = np.zeros(len(children))
    counts = [Counter(c) for c in children]
    norm = 1.2 * (0.25 + 0.75 * lengths / lengths.mean())
    for term in set(query):
        n = having.get(term, 0)
        if not n:
            continue
        idf = math.log(1 + (len(children) - n + 0.5) / (n + 0.5))
        tf = np.array([c.get(term, 0) for c in counts], dtype=float)
        scores += idf * tf * 2.2 / (tf + norm)
    return scores


def docs_ranked(order: Sequence[int], owner: list[str], depth: int = 5) -> list[str]:
    ranked: list[str] = []
    for i in order:
        if owner[i] not in ranked:
            ranked.append(owner[i])
            if len(ranked) == depth:
                break
    return ranked


class Capture:
    """Wraps the index: keeps each dual_search result; `dense_only` withholds the sparse query."""

    def __init__(self, inner: Any, *, dense_only: bool = False) -> None:
        self.inner, self.dense_only = inner, dense_only
        self.found: list[Any] = []

    async def dual_search(self, vector: Any, **options: Any) -> Any:
        if self.dense_only:
            options["sparse"] = None
        found = await self.inner.dual_search(vector, **options)
        self.found.append(found)
        return found


async def evaluate_set(name: str, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    texts, questions = load_set(name, args.docs, args.questions)
    kb = root / name / "kb"
    kb.mkdir(parents=True)
    for doc_id, text in texts.items():
        (kb / doc_id).parent.mkdir(parents=True, exist_ok=True)
        (kb / doc_id).write_text(text + "\n", encoding="utf-8")
    embedder, detector = args.embedder, args.detector
    index = await asyncio.to_thread(QdrantEdgeIndex.open, root / name / "qdrant", 384)
    started = time.perf_counter()
    await sync_folder([kb], embedder, index)
    await rebuild_allowlist(root / name, [kb], index, detector)
    children = [
        (doc_id, c.text)
        for doc_id, text in texts.items()
        for c in load_children(text.encode(), doc_id, doc_id)
    ]
    owner = [d for d, _ in children]
    matrix = np.array(await embedder.embed_documents([t for _, t in children]))
    words = [_WORD.findall(t.lower()) for _, t in children]
    print(f"{name}: {len(texts)} docs, {len(children)} children, {len(questions)} questions,"
          f" indexed in {time.perf_counter() - started:.0f} s")  # fmt: skip
    config = PipelineConfig(keyword_map={}, allowlist=load_allowlist(root / name), top_parents=5)
    deps = PipelineDeps(embedder, index, detector, None, None, None, PromptBook.load(), config)  # type: ignore[arg-type]
    runs: dict[str, list[list[str]]] = {r: [] for r in RETRIEVERS}
    hybrid, dense_only = Capture(index), Capture(index, dense_only=True)
    for n, (question, _) in enumerate(questions):
        q = np.array(await embedder.embed_query(question))
        dense = np.argsort(-(matrix @ q), kind="stable")
        sparse = np.argsort(-bm25_scores(words, _WORD.findall(question.lower())), kind="stable")
        fused: dict[int, float] = {}
        for order in (dense[:100], sparse[:100]):
            for rank, i in enumerate(order, start=1):
                fused[int(i)] = fused.get(int(i), 0.0) + 1 / (60 + rank)
        runs["naive dense"].append(docs_ranked(dense, owner))
        runs["naive BM25"].append(docs_ranked(sparse, owner))
        both = sorted(fused, key=lambda i: -fused[i])
        runs["naive dense+BM25 RRF"].append(docs_ranked(both, owner))
        turn = ChatTurn(question, "eval", "", f"t{n}", time.perf_counter())
        for label, wrapped in (("warden", hybrid), ("warden dense-only", dense_only)):
            runtime = Runtime(context=replace(deps, index=wrapped))  # type: ignore[arg-type]
            found = (await retrieve({"turn": turn}, runtime))["retrieval"]
            assert found.error is None, found.error
            runs[label].append(list(dict.fromkeys(s.doc_id for s in found.sources)))
    await index.close()
    gold = [doc for _, doc in questions]
    if name == args.tune:
        tune(hybrid.found, gold)
    return {"set": name, "docs": len(texts), "questions": len(questions),
            "scores": {r: metrics(runs[r], gold) for r in RETRIEVERS}}  # fmt: skip


def metrics(ranked: list[list[str]], gold: list[str]) -> dict[str, float]:
    ranks = [r.index(g) + 1 if g in r else 0 for r, g in zip(ranked, gold, strict=True)]
    total = len(gold)
    out = {f"r@{k}": sum(0 < r <= k for r in ranks) / total for k in (1, 3, 5)}
    out["mrr"] = sum(1 / r for r in ranks if r) / total
    return out


def tune(found: list[Any], gold: list[str]) -> None:
    rows = []
    for share in (0.05, 0.1, 0.2, 0.3):
        ranked = []
        for result in found:
            best = fuse(
                Ranked.of(result.core, result.personal),
                Ranked.of(result.core_sparse, result.personal_sparse),
                top_parents=5, sparse_share=share,
            ).best  # fmt: skip
            ranked.append(list(dict.fromkeys(str(h.payload["doc_id"]) for h in best)))
        m = metrics(ranked, gold)
        rows.append([f"{share:g}", *(f"{m[c]:.3f}" for c in ("r@1", "r@3", "mrr"))])
    print_table(["sparse share", "r@1", "r@3", "mrr"], rows, "fusion grid")


def report(results: list[dict[str, Any]]) -> str:
    lines = ["| set | docs | questions | retriever | recall@1 | recall@3 | recall@5 | MRR |",
             "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for r in results:
        for name, m in r["scores"].items():
            cells = " | ".join(f"{m[c]:.3f}" for c in ("r@1", "r@3", "r@5", "mrr"))
            lines.append(f"| {r['set']} | {r['docs']} | {r['questions']} | {name} | {cells} |")
    return "\n".join(lines) + "\n"


async def main_async(args: argparse.Namespace) -> str:
    args.embedder = OnnxMiniLmEmbedder()
    args.detector = await asyncio.to_thread(PresidioPiiDetector)
    results = []
    with tempfile.TemporaryDirectory(prefix="warden-eval-") as folder:
        for name in args.sets:
            results.append(await evaluate_set(name, args, Path(folder)))
            print(report(results[-1:]))
    return report(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["nyt", "amazon", "faq"])
    parser.add_argument("--docs", type=int, default=1000, help="paragraphs per SQuAD-shifts set")
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--tune", default="", help="print a fusion grid on this set")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results-retrieval.md")
    args = parser.parse_args()
    args.out.write_text(asyncio.run(main_async(args)), encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
