"""ChatPipeline: one message in, one ChatOutcome out. Compiles the graph once."""

from __future__ import annotations

import logging
import time
import uuid
from datetime import timedelta
from typing import Any

from pipelines.deps import PipelineDeps
from pipelines.graph import build_graph
from pipelines.metering import metering
from pipelines.nodes.reject import rejection_update, trace_rejection
from pipelines.outcome import ChatOutcome
from pipelines.ports import Message
from pipelines.safety.classify import Classification, classify_message
from pipelines.state import ROUTE_OF, PipelineState
from pipelines.streaming import STREAM_ANSWER, Listener, Started, Token, token_text
from pipelines.tracing import new_trace_id

__all__ = ["ChatOutcome", "ChatPipeline"]
_log = logging.getLogger(__name__)


class ChatPipeline:
    def __init__(self, deps: PipelineDeps) -> None:
        self.deps = deps
        self.graph = build_graph().compile()

    async def answer(
        self,
        query: str,
        *,
        user_id: str,
        user_name: str,
        shortcut: bool = True,
        listener: Listener | None = None,
        verdict: Classification | None = None,
    ) -> ChatOutcome:
        """Runs one message. `shortcut=False` sends abusive messages through the graph too.

        With a `listener`, the model's answer is streamed: it gets `Started` once the message
        is classified, then the generated answer's restored pieces as `Token`s (none off the
        generated path). The outcome is the same as without one. An edge that has already
        classified the message with the same rules may pass its `verdict` to save the work.
        """
        if not user_id:
            raise ValueError("answer needs the user id from the verified token")
        started = time.perf_counter()
        trace_id = new_trace_id()
        state: PipelineState = {
            "query": query,
            "user_id": user_id,
            "user_name": user_name,
            "started_at": started,
        }
        with metering() as calls:
            verdict = verdict or classify_message(query, self.deps.config.safety)
            if listener is not None:
                listener(Started(ROUTE_OF[verdict.query_type], trace_id))
            if verdict.query_type == "abusive" and shortcut:
                state = self._reject_here(state, list(verdict.reasons), trace_id)
            else:
                wants_history = verdict.query_type == "question"
                state["chat_history"] = await self._history(user_id) if wants_history else []
                state = await self._run_graph(state, trace_id, listener)
        latency_ms = (time.perf_counter() - started) * 1000
        return ChatOutcome.from_state(state, calls=calls, latency_ms=latency_ms, trace_id=trace_id)

    async def run_graph_only(self, query: str, *, user_id: str, user_name: str) -> ChatOutcome:
        """The full graph for every route (no edge shortcut): for equivalence checks."""
        return await self.answer(query, user_id=user_id, user_name=user_name, shortcut=False)

    def _reject_here(
        self, state: PipelineState, reasons: list[str], trace_id: str
    ) -> PipelineState:
        """The graph's classify -> reject path, without the graph: no port is touched."""
        rejected: dict[str, Any] = {
            **state,
            "query_type": "abusive",
            "reasons": reasons,
            **rejection_update(),
        }
        trace_rejection(rejected, trace_id=trace_id, deps=self.deps)  # type: ignore[arg-type]
        return rejected  # type: ignore[return-value]

    async def _run_graph(
        self, state: PipelineState, trace_id: str, listener: Listener | None
    ) -> PipelineState:
        config: Any = {"run_id": uuid.UUID(hex=trace_id)}  # nodes read it as the trace id
        if listener is None:
            result = await self.graph.ainvoke(state, context=self.deps, config=config)
            return result  # type: ignore[return-value]
        config["configurable"] = {STREAM_ANSWER: True}
        final: Any = state
        modes: Any = ["custom", "values"]
        async for mode, chunk in self.graph.astream(
            state, context=self.deps, config=config, stream_mode=modes
        ):
            if mode == "values":
                final = chunk  # the last one is the finished state, as `ainvoke` returns
            elif (text := token_text(chunk)) is not None:
                listener(Token(text))
        return final  # type: ignore[no-any-return]

    async def _history(self, user_id: str) -> list[Message]:
        """The last messages of the user's recent turns; an unreachable store means none."""
        config = self.deps.config
        since = self.deps.clock() - timedelta(days=config.history_days)
        try:
            records = await self.deps.store.recent_history(
                user_id, since=since, limit=config.history_window
            )
        except Exception as exc:  # noqa: BLE001 - history is a nicety, the answer is not
            _log.warning("history unavailable: %s", type(exc).__name__)
            return []
        return [Message(record.role, record.content) for record in records]
