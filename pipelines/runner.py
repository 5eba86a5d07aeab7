"""ChatPipeline: one classified message in, one ChatOutcome out. Compiles the graph once.

Greetings and questions run through the compiled graph, whose `classify` node finds the
verdict already in the state. An abusive message is answered by the graph's own `reject`
node, called directly: the graph engine costs about a millisecond a run, several times the
refusal itself (SPEC section 1 allows this, and a test shows both ways give the same result).
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.graph import build_graph
from pipelines.metering import metering
from pipelines.nodes.reject import reject
from pipelines.outcome import ChatOutcome
from pipelines.ports import Message
from pipelines.safety.verdict_cache import VerdictCache
from pipelines.state import ChatTurn, Classification, PipelineState
from pipelines.streaming import Listener, Retract, Started, Token, is_retract, token_text
from pipelines.tracing import new_trace_id

__all__ = ["ChatOutcome", "ChatPipeline"]
_log = logging.getLogger(__name__)


class ChatPipeline:
    def __init__(self, deps: PipelineDeps) -> None:
        self.deps = deps
        self.graph = build_graph().compile()
        self._verdicts = VerdictCache(deps.classify)

    def classify(self, query: str) -> Classification:
        """The route decision, with the configured rules (pure, local, no port); a text seen
        recently gets the verdict it got then, without being classified again."""
        return self._verdicts(query)

    async def answer(
        self,
        query: str,
        verdict: Classification,
        *,
        user_id: str,
        user_name: str,
        listener: Listener | None = None,
        turn_id: str = "",
    ) -> ChatOutcome:
        """Runs one message that `classify` has judged. With a `listener`, it gets `Started`
        first, then the generated answer's restored pieces as `Token`s (none off the generated
        path; a `Retract` before a retried attempt's). The outcome is the same as without one.
        A given `turn_id` makes the history save idempotent across runs of the same request."""
        if not user_id:
            raise ValueError("answer needs the user id from the verified token")
        started = time.perf_counter()
        turn = ChatTurn(
            query,
            user_id,
            user_name,
            new_trace_id(),
            started,
            streamed=listener is not None,
            turn_id=turn_id,
        )
        with metering() as calls:
            if listener is not None:
                listener(Started(verdict.route, turn.trace_id))
            if verdict.query_type == "abusive":
                state: PipelineState = {"turn": turn, "verdict": verdict}
                state.update(await reject(state, Runtime(context=self.deps)))  # type: ignore[typeddict-item]
            else:
                if verdict.query_type == "question":
                    turn = replace(turn, history=await self._history(user_id))
                state = await self._run_graph({"turn": turn, "verdict": verdict}, listener)
        latency_ms = (time.perf_counter() - started) * 1000
        return ChatOutcome.from_state(state, calls=calls, latency_ms=latency_ms)

    async def run_graph_only(self, query: str, *, user_id: str, user_name: str) -> ChatOutcome:
        """The compiled graph alone, classify node and all, for every route: to show that it
        gives what `answer` gives."""
        started = time.perf_counter()
        turn = ChatTurn(query, user_id, user_name, new_trace_id(), started)
        with metering() as calls:
            if self.classify(query).query_type == "question":  # the history a question gets
                turn = replace(turn, history=await self._history(user_id))
            state = await self._run_graph({"turn": turn}, None)
        latency_ms = (time.perf_counter() - started) * 1000
        return ChatOutcome.from_state(state, calls=calls, latency_ms=latency_ms)

    async def _run_graph(self, state: PipelineState, listener: Listener | None) -> PipelineState:
        if listener is None:
            result = await self.graph.ainvoke(state, context=self.deps)
            return result  # type: ignore[return-value]
        final: Any = state
        modes: Any = ["custom", "values"]
        async for mode, chunk in self.graph.astream(state, context=self.deps, stream_mode=modes):
            if mode == "values":
                final = chunk  # the last one is the finished state, as `ainvoke` returns
            elif (text := token_text(chunk)) is not None:
                listener(Token(text))
            elif is_retract(chunk):
                listener(Retract())
        return final  # type: ignore[no-any-return]

    async def _history(self, user_id: str) -> tuple[Message, ...]:
        """The last messages of the user's recent turns; an unreachable store means none."""
        config = self.deps.config
        since = self.deps.clock() - timedelta(days=config.history_days)
        try:
            records = await self.deps.store.recent_history(
                user_id, since=since, limit=config.history_window
            )
        except Exception as exc:  # noqa: BLE001 - history is a nicety, the answer is not
            _log.warning("history unavailable: %s", type(exc).__name__)
            return ()
        return tuple(Message(record.role, record.content) for record in records)
