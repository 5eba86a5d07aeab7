"""Retrieval with and without PII masking, on a question set nobody on the team wrote.

    PYTHONPATH=. python bench/eval_retrieval_masking.py [--out bench/results-retrieval-masking.md]
                                                       [--limit N] [--with-headings]

Data: the Python FAQ from Debian `python3.11-doc` (bench/_faq_corpus.py). Each answer, without
its question heading (unless --with-headings), is one .txt document of the knowledge base.

Pipeline pieces, all real: `ingestion.indexer.sync_folder` (parent/child chunking), the ONNX
MiniLM embedder, a Qdrant Edge index in a temporary folder, the allowlist rebuilt by
`service.allowlist.rebuild_allowlist` and read back by `service.pipeline_config.load_allowlist`
(as `warden ingest` and `warden serve` do), the Presidio detector, and the `retrieve` node
itself (mask_request -> keyword expansion -> one embedding -> dual search -> rank fusion),
called with a `Runtime(context=deps)`. The keyword map is empty: the shipped one is for the
legal-aid sample corpus (its "pil" would append "Public Interest Litigation" to a PIL question).

Probe sets: the FAQ questions; the same with a synthetic personal detail appended (PERSONAL);
and answer sentences in which the detector flags a term the allowlist keeps (known-item
queries: the only third-party text here where the allowlist can matter). Each is asked raw
(a detector that finds nothing), masked with the allowlist (the service) and masked without
it. "placeholders not embedded" is a proposal, not the service: the masked query with its
<TYPE_N> placeholders removed from what the embedder sees. A hit is the probe's own answer
document among the top parents: hit@1 (first), hit@3 (any of the 3).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import print_table  # noqa: E402
from bench._faq_corpus import Pair, Probe, allowlist_sentences, faq_pairs  # noqa: E402
from bench._masking_report import (  # noqa: E402
    HEADERS,
    NO_ALLOWLIST,
    PROPOSAL,
    RAW,
    SERVICE,
    Run,
    Runs,
    markdown,
    rows,
)
from ingestion.indexer import sync_folder  # noqa: E402
from pipelines.deps import PipelineConfig, PipelineDeps  # noqa: E402
from pipelines.nodes.retrieve import retrieve  # noqa: E402
from pipelines.ports import Embedder, PiiSpan  # noqa: E402
from pipelines.state import ChatTurn  # noqa: E402
from prompts import PromptBook  # noqa: E402
from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder  # noqa: E402
from service.adapters.pii.presidio_detector import PresidioPiiDetector  # noqa: E402
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex  # noqa: E402
from service.allowlist import rebuild_allowlist  # noqa: E402
from service.pipeline_config import load_allowlist  # noqa: E402

PERSONAL = "My name is Asha Rao and my email is asha.rao@example.org."
PERSONAL_VALUES = ("Asha Rao", "asha.rao@example.org")
_PLACEHOLDER = re.compile(r"\s*<[A-Z][A-Z0-9_]*_\d+>")


class NoPii:
    """The raw condition: a detector that finds nothing, so the probe is sent as typed."""

    async def detect(self, text: str) -> list[PiiSpan]:
        return []


class Unused:
    """Store and tracer slots: the retrieve node calls neither."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"retrieve called {name}")


class PlaceholderFreeEmbedder:
    """Proposal: the embedder sees the masked query without its placeholders."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.dimension = inner, inner.dimension

    async def embed_query(self, text: str) -> list[float]:
        return await self.inner.embed_query(_PLACEHOLDER.sub("", text))

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_documents(texts)


async def ask_all(deps: PipelineDeps, probes: list[Probe], **swap: Any) -> Run:
    allowlist = swap.pop("allowlist", deps.config.allowlist)
    runtime = Runtime(
        context=replace(deps, config=replace(deps.config, allowlist=allowlist), **swap)
    )
    run = Run(probes, [], [])
    for n, probe in enumerate(probes):
        turn = ChatTurn(probe.text, "bench", "", f"masking-{n}", time.perf_counter())
        found = (await retrieve({"turn": turn}, runtime))["retrieval"]
        assert found.error is None, found.error
        run.safe_queries.append(found.safe_query)
        run.ranked.append([s.doc_id for s in found.sources])
    return run


async def build_kb(pairs: list[Pair], root: Path, headings: bool) -> tuple[PipelineDeps, Any]:
    kb = root / "kb"
    for pair in pairs:
        path = kb / pair.doc_id
        path.parent.mkdir(parents=True, exist_ok=True)
        text = f"{pair.question}\n\n{pair.answer}" if headings else pair.answer
        path.write_text(text + "\n", encoding="utf-8")
    embedder = OnnxMiniLmEmbedder()
    index = await asyncio.to_thread(QdrantEdgeIndex.open, root / "qdrant", embedder.dimension)
    detector = await asyncio.to_thread(PresidioPiiDetector)
    report = await sync_folder([kb], embedder, index)
    terms = await rebuild_allowlist(root, [kb], index, detector)
    print(f"indexed {report.added} documents, {report.chunks} chunks; allowlist {terms} terms")
    deps = PipelineDeps(
        embedder=embedder,
        index=index,
        detector=detector,
        chat_model=None,
        store=Unused(),  # type: ignore[arg-type]
        tracer=Unused(),  # type: ignore[arg-type]
        prompts=PromptBook.load(),
        config=PipelineConfig(keyword_map={}, allowlist=load_allowlist(root)),
    )
    return deps, index


async def all_runs(deps: PipelineDeps, pairs: list[Pair]) -> Runs:
    questions = [Probe(p.question, p.doc_id) for p in pairs]
    personal = [Probe(f"{p.question} {PERSONAL}", p.doc_id) for p in pairs]
    named = await allowlist_sentences(pairs, deps.detector, deps.config.allowlist)
    conditions: list[tuple[str, dict[str, Any]]] = [
        (RAW, {"detector": NoPii()}),
        (SERVICE, {}),
        (NO_ALLOWLIST, {"allowlist": frozenset[str]()}),
    ]
    runs: Runs = {}
    for name, probes in (
        ("FAQ questions", questions),
        ("FAQ questions + personal detail", personal),
        ("answer sentences naming allowlisted terms", named),
    ):
        for condition, swap in conditions:
            runs[name, condition] = await ask_all(deps, probes, **swap)
        if probes is personal:
            embedder = PlaceholderFreeEmbedder(deps.embedder)
            runs[name, PROPOSAL] = await ask_all(deps, probes, embedder=embedder)
    return runs


def setup(
    pairs: list[Pair], allowlist: frozenset[str], elapsed: float, headings: bool
) -> list[str]:
    flag, kb = (" --with-headings", "with") if headings else ("", "without")
    return [
        f"Produced by `PYTHONPATH=. python bench/eval_retrieval_masking.py{flag}` in"
        f" {elapsed:.0f} s on this machine (2 cores). Deterministic: same inputs, same table.",
        "",
        f"- Data: the Python FAQ (Debian `python3.11-doc`, PSF-2.0), {len(pairs)} question/answer"
        " pairs parsed from its reStructuredText sources (bench/_faq_corpus.py).",
        f"- Knowledge base: one document per answer, {kb} its question heading, ingested by"
        " `sync_folder` (real parent/child chunking) with the ONNX MiniLM embedder into Qdrant"
        " Edge. The allowlist was rebuilt from this corpus by `rebuild_allowlist`, as"
        f" `warden ingest` does: {len(allowlist)} terms.",
        "- Every probe goes through the real `retrieve` node (Presidio + allowlist + placeholder"
        " vault, one embedding, dual search, top 3 parents); no keyword map (the shipped one is"
        " for the legal sample corpus). Hit = the probe's own answer among the top parents.",
        f"- Personal detail appended to each question: `{PERSONAL}`. PII left = the name or"
        " the email still present in the query that was embedded.",
        "- Answer sentences naming allowlisted terms: answer sentences in which the detector flags"
        " a term the allowlist keeps (at most 2 per answer), asked as known-item queries.",
        f"- `{PROPOSAL}` is a proposal measured here, not what the service does: the same masked"
        " query with its `<TYPE_N>` placeholders removed from the text the embedder sees.",
    ]


async def evaluate(args: argparse.Namespace) -> str:
    started = time.perf_counter()
    pairs = faq_pairs()[: args.limit or None]
    with tempfile.TemporaryDirectory(prefix="warden-masking-") as folder:
        deps, index = await build_kb(pairs, Path(folder), args.with_headings)
        try:
            runs = await all_runs(deps, pairs)
        finally:
            await index.close()
    print_table(HEADERS, rows(runs, PERSONAL_VALUES), f"{len(pairs)} Python FAQ pairs")
    allowlist = deps.config.allowlist
    intro = setup(pairs, allowlist, time.perf_counter() - started, args.with_headings)
    return markdown(runs, setup=intro, allowlist=allowlist, personal_values=PERSONAL_VALUES)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    default_out = Path(__file__).parent / "results-retrieval-masking.md"
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--limit", type=int, default=0, help="the first N pairs only (0: all)")
    parser.add_argument(
        "--with-headings", action="store_true", help="keep each question in its answer document"
    )
    args = parser.parse_args()
    args.out.write_text(asyncio.run(evaluate(args)), encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
