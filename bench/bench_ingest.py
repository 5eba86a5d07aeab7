"""Ingestion throughput against embedding alone, both measured in the same run.

    python bench/bench_ingest.py [--copies 12] [--threads 1]

Copies sample_kb/ `--copies` times into a temporary folder (every copy has its own doc ids,
so ~180 chunks per copy are all indexed), then times:
- baseline: the real OnnxMiniLmEmbedder embedding the same child texts, in the indexer's
  groups (EMBED_GROUP texts per call), timed before and after the ingest and averaged;
- ingest: `sync_folder` into a real Qdrant Edge index (load, chunk, embed, upsert);
- re-run: the same folder again (everything skipped).
Prints chunks/s and the ratio ingest/baseline (target >= 0.5). Figures only: nothing asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingestion.chunking import split_document  # noqa: E402
from ingestion.indexer import sync_folder  # noqa: E402
from ingestion.loaders import load_document  # noqa: E402
from ingestion.points import EMBED_GROUP  # noqa: E402
from pipelines.ports import Embedder  # noqa: E402


def make_corpus(target: Path, copies: int) -> list[str]:
    """Copies sample_kb/ into target/copyNN/ and returns every child text, in file order."""
    texts: list[str] = []
    for n in range(copies):
        folder = target / f"copy{n:02d}"
        shutil.copytree(ROOT / "sample_kb", folder)
        for path in sorted(folder.iterdir()):
            texts += [c.text for c in split_document(path.name, load_document(path))]
    return texts


async def embed_alone(embedder: Embedder, texts: list[str]) -> float:
    started = time.perf_counter()
    for first in range(0, len(texts), EMBED_GROUP):
        await embedder.embed_documents(texts[first : first + EMBED_GROUP])
    return time.perf_counter() - started


async def main(copies: int, threads: int) -> None:
    from service.adapters.embedding.onnx_embedder import (
        OnnxMiniLmEmbedder,  # heavy: imported lazily
    )
    from service.adapters.vector.qdrant_edge import QdrantEdgeIndex

    embedder = OnnxMiniLmEmbedder(intra_op_threads=threads)
    embedder.warm()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "kb"
        corpus.mkdir()
        texts = make_corpus(corpus, copies)
        before = await embed_alone(embedder, texts)

        index = QdrantEdgeIndex.open(Path(tmp) / "index", embedder.dimension)
        try:
            started = time.perf_counter()
            report = await sync_folder([corpus], embedder, index)
            ingest = time.perf_counter() - started
            started = time.perf_counter()
            again = await sync_folder([corpus], embedder, index)
            rerun = time.perf_counter() - started
            stored = await index.count()
        finally:
            await index.close()
        after = await embed_alone(embedder, texts)

    baseline = (before + after) / 2
    files = report.added + len(report.errors)
    print(f"corpus: {files} files ({copies} copies), {len(texts)} chunks, {stored} points stored")
    print(f"embed alone : {len(texts) / baseline:8.1f} chunks/s  ({before:.2f}s, {after:.2f}s)")
    print(f"ingest      : {report.chunks / ingest:8.1f} chunks/s  ({ingest:.2f}s)")
    print(f"ratio ingest/embed-alone: {(report.chunks / ingest) / (len(texts) / baseline):.2f}")
    print(f"re-run (all skipped: {again.skipped}): {rerun * 1000:.0f} ms")
    if report.errors:
        print(f"errors: {report.errors}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=12)
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime intra-op threads")
    args = parser.parse_args()
    asyncio.run(main(args.copies, args.threads))
