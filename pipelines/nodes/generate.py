"""generate: gate, then one model call on masked text (or an extractive or degraded answer).

When `check_answer` refused the previous attempt, this is a retry: the user message carries
the gate's feedback, and a streamed turn first writes `{"reset": True}` so the edge discards
the refused text it showed. Cost (latency, tokens) is summed over the attempts.

With `answer_stop_runaway` (the default) the model is read as a stream even when nobody
streams the turn, and the stream is closed as soon as the reply is sure to be refused as
`repetitive` or `too_long` (a small model loops until its token cap); the gate then refuses
the part read, for that reason."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import StreamWriter

from pipelines.answer_gate import runaway as answer_gate_runaway
from pipelines.answers import ABSTAIN, SEARCH_UNAVAILABLE, degraded_answer, numbered_context
from pipelines.deps import PipelineDeps
from pipelines.extractive import extractive_answer
from pipelines.masking import mask_passages, name_placeholder
from pipelines.nodes.retrieve import PII_UNAVAILABLE, RETRIEVAL_UNAVAILABLE
from pipelines.ports import ChatModel, Message, ModelUnavailable
from pipelines.safety.confidence import answer_gate
from pipelines.state import Answer, ChatTurn, Draft, GateOutcome, PipelineState, Retrieval
from pipelines.streaming import StreamRestorer, stream_completion

_log = logging.getLogger(__name__)
RETRY_NOTE = (
    "\n\nYour previous answer was refused by an automatic check: {feedback} "
    "Write a new answer that follows the rules."
)


async def generate(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """When the turn is streamed, the model is streamed and each restored piece is written to
    `runtime.stream_writer`; otherwise one `complete` call."""
    deps, found = runtime.context, state["retrieval"]
    if found.error in (PII_UNAVAILABLE, RETRIEVAL_UNAVAILABLE):
        return {"answer": Answer(SEARCH_UNAVAILABLE, "degraded")}
    config = deps.config
    if not answer_gate(
        found.confidence, found.signals, config.confidence_threshold, config.calibration
    ):
        return {"answer": Answer(ABSTAIN, "abstained")}
    if deps.chat_model is None:
        return {"answer": await extractive(found, deps)}
    writer = runtime.stream_writer if state["turn"].streamed else None
    gate = state.get("gate")
    if gate is None or gate.passed:  # the first attempt
        return {"answer": await _generated(state["turn"], found, deps, deps.chat_model, writer)}
    if writer is not None:
        writer({"reset": True})
    answer = await _generated(state["turn"], found, deps, deps.chat_model, writer, gate.feedback)
    return {"answer": with_earlier_cost(answer, state["answer"], gate)}


def with_earlier_cost(answer: Answer, earlier: Answer, gate: GateOutcome) -> Answer:
    """The answer, costing what the refused attempts cost too."""
    tokens = {k: answer.tokens.get(k, 0) + earlier.tokens.get(k, 0) for k in answer.tokens}
    latency = answer.model_latency_ms + earlier.model_latency_ms
    return replace(answer, model_latency_ms=latency, tokens=tokens)


def _degraded(found: Retrieval, error: str, latency_ms: float = 0.0) -> Answer:
    return Answer(degraded_answer(found.sources), "degraded", latency_ms, error=error)


async def extractive(found: Retrieval, deps: PipelineDeps) -> Answer:
    try:
        text = await extractive_answer(
            found.context,
            found.query_vector,
            deps.embedder,
            count=deps.config.extractive_sentences,
            query=found.search_text,
            expansion=found.expansion,
            matched=found.matched_children,
            scores=[source.score for source in found.sources],
            documents=[source.doc_id or source.source for source in found.sources],
            uploads=[bool(source.extra.get("is_temporary")) for source in found.sources],
        )
    except Exception as exc:  # noqa: BLE001 - degrade, don't die
        _log.warning("extractive answer failed: %s", type(exc).__name__)
        return _degraded(found, "embedder_unavailable")
    return Answer(text or degraded_answer(found.sources), "extractive")


async def model_messages(
    turn: ChatTurn, found: Retrieval, deps: PipelineDeps, feedback: str = ""
) -> list[Message]:
    """system (name as a placeholder), the masked history window, then context + question
    (+ the answer gate's feedback on a retry)."""
    return (await _prompt(turn, found, deps, feedback))[0]


async def _prompt(
    turn: ChatTurn, found: Retrieval, deps: PipelineDeps, feedback: str
) -> tuple[list[Message], Draft]:
    passages = await mask_passages(
        found.context,
        [bool(s.extra.get("is_temporary")) for s in found.sources],
        found.vault,
        detector=deps.detector,
        user_name=turn.user_name,
        allowlist=deps.config.allowlist,
    )
    prompts, window = deps.prompts, deps.config.history_window
    history = found.masked_history[-window:] if window else ()
    name = name_placeholder(found.vault, turn.user_name)
    question = prompts.answer_user.render(
        context=numbered_context(passages), question=found.safe_query
    )
    system = prompts.answer_system.render(user_name=name)
    note = RETRY_NOTE.format(feedback=feedback) if feedback else ""
    draft = Draft("", tuple(passages), system, tuple(m.content for m in history))
    return [Message("system", system), *history, Message("user", question + note)], draft


def _unseen(_chunk: Any) -> None:
    """A turn nobody streams: the pieces are read (to stop a runaway reply), not shown."""


async def _within[T](seconds: float | None, call: Awaitable[T]) -> T:
    try:
        async with asyncio.timeout(seconds):
            return await call
    except TimeoutError:
        raise ModelUnavailable("timeout") from None


def _runaway(max_chars: int) -> Callable[[str], bool]:
    """Stops reading a reply the answer gate is already sure to refuse (`too_long`,
    `repetitive`): the rest would cost time and tokens and be refused the same."""
    return lambda reply: answer_gate_runaway(reply, max_chars) is not None


async def _generated(
    turn: ChatTurn,
    found: Retrieval,
    deps: PipelineDeps,
    model: ChatModel,
    writer: StreamWriter | None,
    feedback: str = "",
) -> Answer:
    try:
        messages, draft = await _prompt(turn, found, deps, feedback)
    except Exception as exc:  # noqa: BLE001 - fail closed: unmasked context must not leave
        _log.warning("masking the context failed: %s", type(exc).__name__)
        return _degraded(found, PII_UNAVAILABLE)
    config, started = deps.config, time.perf_counter()
    try:
        if writer is None and not config.answer_stop_runaway:
            completion = await model.complete(
                messages, temperature=config.answer_temperature, max_tokens=config.answer_max_tokens
            )
        else:
            streamed = stream_completion(
                model,
                messages,
                temperature=config.answer_temperature,
                max_tokens=config.answer_max_tokens,
                restorer=StreamRestorer(found.vault.restore),
                write=writer or _unseen,
                stop=_runaway(config.answer_max_chars) if config.answer_stop_runaway else None,
            )
            # read whole for nobody, a reply keeps the bound one `complete` call has
            seconds = config.answer_timeout_s if writer is None else None
            completion = await _within(seconds, streamed)
    except Exception as exc:  # noqa: BLE001 - degrade, don't die (SPEC 6.6)
        reason = exc.reason if isinstance(exc, ModelUnavailable) else "model_error"
        _log.warning("model unavailable: %s", reason)
        return _degraded(found, reason, (time.perf_counter() - started) * 1000)
    # an empty reply is the answer gate's to refuse (`empty`): it is retried like the others
    return Answer(
        found.vault.restore(completion.text),
        "generated",
        completion.latency_ms or (time.perf_counter() - started) * 1000,
        {"prompt": completion.prompt_tokens, "completion": completion.completion_tokens},
        draft=replace(draft, reply=completion.text),
    )
