"""generate: gate, then one model call on masked text (or an extractive or degraded answer)."""

from __future__ import annotations

import logging
import time
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import StreamWriter

from pipelines.answers import ABSTAIN, SEARCH_UNAVAILABLE, degraded_answer, numbered_context
from pipelines.deps import PipelineDeps
from pipelines.extractive import extractive_answer
from pipelines.masking import mask_passages, name_placeholder
from pipelines.nodes.retrieve import PII_UNAVAILABLE, RETRIEVAL_UNAVAILABLE
from pipelines.ports import ChatModel, Message, ModelUnavailable
from pipelines.safety.confidence import passes_gate
from pipelines.safety.keywords import expand_keywords
from pipelines.safety.placeholders import PlaceholderVault, without_placeholders
from pipelines.state import PipelineState
from pipelines.streaming import StreamRestorer, stream_completion, streams_answer

_log = logging.getLogger(__name__)
NO_TOKENS = {"prompt": 0, "completion": 0}
NOT_STREAMED: RunnableConfig = {}  # direct calls (tests) and `ainvoke` runs: one `complete`


def _answer(response: str, mode: str, **extra: Any) -> dict[str, Any]:
    """An answer that did not come from the model (its latency is 0 unless one was tried)."""
    return {
        "response": response,
        "mode": mode,
        "latency_ms": 0.0,
        "tokens": dict(NO_TOKENS),
        **extra,
    }


async def generate(
    state: PipelineState, runtime: Runtime[PipelineDeps], config: RunnableConfig = NOT_STREAMED
) -> dict[str, Any]:
    """`config` is the run's (LangGraph injects it): when it asks for a streamed answer, the
    model is streamed and each restored piece is written to `runtime.stream_writer`."""
    deps = runtime.context
    if state.get("error") in (PII_UNAVAILABLE, RETRIEVAL_UNAVAILABLE):
        return _answer(SEARCH_UNAVAILABLE, "degraded")
    if not passes_gate(state.get("confidence", 0.0), deps.config.confidence_threshold):
        return _answer(ABSTAIN, "abstained")
    if deps.chat_model is None:
        return await _extractive(state, deps)
    writer = runtime.stream_writer if streams_answer(config) else None
    return await _generated(state, deps, deps.chat_model, writer)


async def _extractive(state: PipelineState, deps: PipelineDeps) -> dict[str, Any]:
    sources = state.get("sources", [])
    safe_query = state.get("safe_query", "")
    query = without_placeholders(safe_query) or safe_query  # as retrieve embedded it
    expanded = expand_keywords(query, deps.config.keyword_map)
    try:
        text = await extractive_answer(
            state.get("context", []),
            state.get("query_vector", []),
            deps.embedder,
            count=deps.config.extractive_sentences,
            query=query,
            expansion=expanded.removeprefix(query),  # expansions are appended, never substituted
            matched=state.get("matched_children", []),
        )
    except Exception as exc:  # noqa: BLE001 - degrade, don't die
        _log.warning("extractive answer failed: %s", type(exc).__name__)
        return _answer(degraded_answer(sources), "degraded", error="embedder_unavailable")
    return _answer(text or degraded_answer(sources), "extractive")


async def model_messages(state: PipelineState, deps: PipelineDeps) -> list[Message]:
    """system (name as a placeholder), the masked history window, then context + question."""
    vault: PlaceholderVault = state.get("placeholders") or PlaceholderVault()
    user_name = state.get("user_name", "")
    sources = state.get("sources", [])
    passages = await mask_passages(
        state.get("context", []),
        [bool(s.extra.get("is_temporary")) for s in sources],
        vault,
        detector=deps.detector,
        user_name=user_name,
        allowlist=deps.config.allowlist,
    )
    prompts = deps.prompts
    window = deps.config.history_window
    history = state.get("masked_history", [])[-window:] if window else []
    return [
        Message(
            "system", prompts.answer_system.render(user_name=name_placeholder(vault, user_name))
        ),
        *history,
        Message(
            "user",
            prompts.answer_user.render(
                context=numbered_context(passages), question=state.get("safe_query", "")
            ),
        ),
    ]


async def _generated(
    state: PipelineState, deps: PipelineDeps, model: ChatModel, writer: StreamWriter | None
) -> dict[str, Any]:
    vault: PlaceholderVault = state.get("placeholders") or PlaceholderVault()
    sources = state.get("sources", [])
    try:
        messages = await model_messages({**state, "placeholders": vault}, deps)
    except Exception as exc:  # noqa: BLE001 - fail closed: unmasked context must not leave
        _log.warning("masking the context failed: %s", type(exc).__name__)
        return _answer(degraded_answer(sources), "degraded", error=PII_UNAVAILABLE)
    started = time.perf_counter()
    try:
        if writer is None:
            completion = await model.complete(
                messages,
                temperature=deps.config.answer_temperature,
                max_tokens=deps.config.answer_max_tokens,
            )
        else:
            completion = await stream_completion(
                model,
                messages,
                temperature=deps.config.answer_temperature,
                max_tokens=deps.config.answer_max_tokens,
                restorer=StreamRestorer(vault.restore),
                write=writer,
            )
    except Exception as exc:  # noqa: BLE001 - degrade, don't die (SPEC 6.6)
        reason = exc.reason if isinstance(exc, ModelUnavailable) else "model_error"
        _log.warning("model unavailable: %s", reason)
        waited = (time.perf_counter() - started) * 1000
        return _answer(degraded_answer(sources), "degraded", error=reason, latency_ms=waited)
    if not completion.text.strip():
        return _answer(degraded_answer(sources), "degraded", error="empty_reply")
    latency = completion.latency_ms or (time.perf_counter() - started) * 1000
    return {
        "response": vault.restore(completion.text),
        "mode": "generated",
        "latency_ms": latency,
        "tokens": {"prompt": completion.prompt_tokens, "completion": completion.completion_tokens},
    }
