"""Runs each question through the service's own classification and `retrieve` node (the
container's embedder, index, detector and configuration) and the same answer gate as
`generate`. No model is called and no history is written: this measures retrieval."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.nodes.retrieve import retrieve
from pipelines.safety.confidence import answer_gate
from pipelines.state import ChatTurn, Retrieval
from pipelines.tracing import new_trace_id
from service.evaluation.cases import RetrievalCase
from service.evaluation.metrics import Rank, first_rank

EVAL_USER = "warden-eval"
DEPTH = 5  # sources looked at (recall@5, nDCG@5); the service cites the first top_parents


@dataclass(frozen=True)
class QuestionResult:
    case: RetrievalCase
    route: str
    sources: tuple[str, ...]  # source names, best first (DEPTH deep)
    rank: Rank  # of the right document; None when absent or out of scope
    confidence: float  # top dense cosine x 100, as the answer reports it
    signals: Mapping[str, float]
    answered: bool  # the configured gate would call a model
    passage_found: bool | None  # the expected passage is in the first three contexts
    error: str | None = None

    @property
    def correct(self) -> bool:
        """The top source is the right document."""
        return self.rank == 1


def _contains(contexts: Sequence[str], passage: str) -> bool:
    wanted = " ".join(passage.lower().split())
    return any(wanted in " ".join(text.lower().split()) for text in contexts)


def _result(
    case: RetrievalCase, route: str, found: Retrieval, deps: PipelineDeps
) -> QuestionResult:
    config = deps.config
    sources = tuple(s.source for s in found.sources)
    usable = found.error is None
    return QuestionResult(
        case=case,
        route=route,
        sources=sources,
        rank=first_rank(case.document, sources) if case.document else None,
        confidence=found.confidence,
        signals=dict(found.signals),
        answered=usable
        and answer_gate(
            found.confidence, found.signals, config.confidence_threshold, config.calibration
        ),
        passage_found=_contains(found.context[:3], case.passage) if case.passage else None,
        error=found.error,
    )


async def run_question(case: RetrievalCase, deps: PipelineDeps) -> QuestionResult:
    verdict = deps.classify(case.question)
    if verdict.route != "question":  # the service would not search: nothing retrieved
        return _result(case, verdict.route, Retrieval(""), deps)
    turn = ChatTurn(case.question, EVAL_USER, "", new_trace_id(), time.perf_counter())
    update = await retrieve({"turn": turn, "verdict": verdict}, Runtime(context=deps))
    return _result(case, "question", update["retrieval"], deps)


async def run_questions(
    cases: Sequence[RetrievalCase],
    deps: PipelineDeps,
    progress: Callable[[], None] = lambda: None,
) -> list[QuestionResult]:
    """Each case in turn (the embedder and the index are shared); `progress` after each."""
    config = deps.config
    deep = replace(deps, config=replace(config, top_parents=max(config.top_parents, DEPTH)))
    results = []
    for case in cases:
        results.append(await run_question(case, deep))
        progress()
    return results
