"""retrieve: mask, expand, embed once (the expanded query as `retrieval.embedding_text` reads
it), search once (core + the user's own, dense + sparse in one request), fuse the two rankings
per parent (pipelines/fusion.py), and measure how much of the question the top parent covers
(pipelines/coverage.py) for the answer gate."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from pipelines.coverage import gate_signals
from pipelines.deps import PipelineDeps
from pipelines.fusion import Ranked, fuse
from pipelines.masking import mask_request
from pipelines.ports import SearchHit
from pipelines.ports.sparse import encode_query
from pipelines.retrieval import embedding_text, parent_key, parent_text, to_source, top_score
from pipelines.safety.confidence import confidence_from_score
from pipelines.safety.keywords import expand_keywords
from pipelines.safety.placeholders import without_placeholders
from pipelines.state import ChatTurn, PipelineState, Retrieval

_log = logging.getLogger(__name__)
PII_UNAVAILABLE = "pii_detector_unavailable"
RETRIEVAL_UNAVAILABLE = "retrieval_unavailable"


def _matched_children(
    best: list[SearchHit], dense: list[SearchHit], sparse: list[SearchHit]
) -> tuple[tuple[str, ...], ...]:
    """Per chosen parent, the texts of all its children among the hits: the dense ones best
    first, then those only the sparse search found, best first."""
    ranked: dict[str, SearchHit] = {}
    for hits in (dense, sparse):
        for hit in sorted(hits, key=lambda hit: -hit.score):
            if hit.payload.get("text"):
                ranked.setdefault(hit.id, hit)
    return tuple(
        tuple(str(h.payload["text"]) for h in ranked.values() if parent_key(h) == parent_key(b))
        for b in best
    )


async def retrieve(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    return {"retrieval": await _retrieval(state["turn"], runtime.context)}


async def _retrieval(turn: ChatTurn, deps: PipelineDeps) -> Retrieval:
    config = deps.config
    window = turn.history[-config.history_window :] if config.history_window else ()
    try:
        masked = await mask_request(
            turn.query,
            window,
            user_name=turn.user_name,
            detector=deps.detector,
            allowlist=config.allowlist,
        )
    except Exception as exc:  # noqa: BLE001 - fail closed: unmasked text must not leave
        _log.warning("PII detection failed: %s", type(exc).__name__)
        return Retrieval("", error=PII_UNAVAILABLE)

    search_text = without_placeholders(masked.safe_query) or masked.safe_query
    expanded = expand_keywords(search_text, config.keyword_map)
    masked_only = Retrieval(
        masked.safe_query,
        search_text=search_text,
        expansion=expanded.removeprefix(search_text),  # expansions are appended, never swapped
        masked_history=tuple(masked.history),
        vault=masked.vault,
        pii_entities=tuple(masked.entity_types),
    )
    try:
        embedded = embedding_text(search_text, masked_only.expansion, config.query_words)
        vector = await deps.embedder.embed_query(embedded)
        found = await deps.index.dual_search(
            vector,
            user_id=turn.user_id,
            now=deps.clock(),
            core_limit=config.core_limit,
            personal_limit=config.personal_limit,
            sparse=encode_query(expanded),
        )
    except Exception as exc:  # noqa: BLE001 - an unreachable index degrades, never a 5xx
        _log.warning("retrieval failed: %s", type(exc).__name__)
        return replace(masked_only, error=RETRIEVAL_UNAVAILABLE)

    dense = [*found.core, *found.personal]
    sparse = [*found.core_sparse, *found.personal_sparse]
    fusion = fuse(
        Ranked.of(found.core, found.personal),
        Ranked.of(found.core_sparse, found.personal_sparse),
        top_parents=config.top_parents,
    )
    best = fusion.best
    return replace(
        masked_only,
        query_vector=tuple(vector),
        context=tuple(parent_text(hit) for hit in best),
        matched_children=_matched_children(best, dense, sparse),
        sources=tuple(to_source(hit, preview_chars=config.preview_chars) for hit in best),
        confidence=confidence_from_score(top_score(dense)),  # the top dense cosine, always
        signals=gate_signals(fusion, search_text),
    )
