"""retrieve: mask, expand, embed once, search once (core + the user's own), merge to parents."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.masking import mask_request
from pipelines.ports import SearchHit
from pipelines.retrieval import merge_hits, parent_key, parent_text, to_source, top_score
from pipelines.safety.confidence import confidence_from_score
from pipelines.safety.keywords import expand_keywords
from pipelines.safety.placeholders import without_placeholders
from pipelines.state import PipelineState

_log = logging.getLogger(__name__)
PII_UNAVAILABLE = "pii_detector_unavailable"
RETRIEVAL_UNAVAILABLE = "retrieval_unavailable"


def _nothing_found(error: str) -> dict[str, Any]:
    return {
        "context": [],
        "sources": [],
        "matched_children": [],
        "confidence": 0.0,
        "query_vector": [],
        "error": error,
    }


def _matched_children(best: list[SearchHit], hits: list[SearchHit]) -> list[list[str]]:
    """Per chosen parent, the texts of all its children among the hits, best first."""
    ranked = [hit for hit in sorted(hits, key=lambda hit: -hit.score) if hit.payload.get("text")]
    return [
        [str(hit.payload["text"]) for hit in ranked if parent_key(hit) == parent_key(b)]
        for b in best
    ]


async def retrieve(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps, config = runtime.context, runtime.context.config
    window = (
        state.get("chat_history", [])[-config.history_window :] if config.history_window else []
    )
    try:
        masked = await mask_request(
            state["query"],
            window,
            user_name=state.get("user_name", ""),
            detector=deps.detector,
            allowlist=config.allowlist,
        )
    except Exception as exc:  # noqa: BLE001 - fail closed: unmasked text must not leave
        _log.warning("PII detection failed: %s", type(exc).__name__)
        return {
            "safe_query": "",
            "pii_found": False,
            "pii_entities": [],
            **_nothing_found(PII_UNAVAILABLE),
        }

    update: dict[str, Any] = {
        "safe_query": masked.safe_query,
        "masked_history": masked.history,
        "placeholders": masked.vault,
        "pii_found": bool(masked.entity_types),
        "pii_entities": masked.entity_types,
    }
    try:
        searchable = without_placeholders(masked.safe_query) or masked.safe_query
        vector = await deps.embedder.embed_query(expand_keywords(searchable, config.keyword_map))
        found = await deps.index.dual_search(
            vector,
            user_id=state["user_id"],
            now=deps.clock(),
            core_limit=config.core_limit,
            personal_limit=config.personal_limit,
        )
    except Exception as exc:  # noqa: BLE001 - an unreachable index degrades, never a 5xx
        _log.warning("retrieval failed: %s", type(exc).__name__)
        return {**update, **_nothing_found(RETRIEVAL_UNAVAILABLE)}

    best = merge_hits(found.core, found.personal, top_parents=config.top_parents)
    return {
        **update,
        "query_vector": list(vector),
        "context": [parent_text(hit) for hit in best],
        "matched_children": _matched_children(best, [*found.core, *found.personal]),
        "sources": [to_source(hit, preview_chars=config.preview_chars) for hit in best],
        "confidence": confidence_from_score(top_score([*found.core, *found.personal])),
    }
