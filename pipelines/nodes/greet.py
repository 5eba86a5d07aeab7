"""greet: at most one short, warm model call with the name as a placeholder; else a template.

Never embeds or searches. The greeting itself is masked before it leaves (it is short, but it
is still the user's text)."""

from __future__ import annotations

import logging
import time
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.masking import name_placeholder, spans_to_mask
from pipelines.ports import ChatModel, Message, ModelUnavailable
from pipelines.safety.placeholders import PlaceholderVault
from pipelines.state import Answer, ChatTurn, PipelineState

_log = logging.getLogger(__name__)


def template_greeting(user_name: str) -> str:
    name = " ".join(user_name.split())
    hello = f"Hello {name}!" if name else "Hello!"
    return f"{hello} I'm Warden. Ask me anything about the knowledge base and I'll cite my sources."


def _template(turn: ChatTurn, error: str | None = None) -> Answer:
    return Answer(template_greeting(turn.user_name), error=error)


async def greeting_messages(
    turn: ChatTurn, deps: PipelineDeps, vault: PlaceholderVault
) -> list[Message]:
    placeholder = name_placeholder(vault, turn.user_name)
    spans = await spans_to_mask(
        turn.query, deps.detector, user_name=turn.user_name, allowlist=deps.config.allowlist
    )
    return [
        Message("system", deps.prompts.greeting_system.render(user_name=placeholder)),
        Message("user", vault.mask(turn.query, spans)),
    ]


async def greet(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps, turn = runtime.context, state["turn"]
    if deps.chat_model is None:
        return {"answer": _template(turn)}
    return {"answer": await _model_greeting(turn, deps, deps.chat_model)}


async def _model_greeting(turn: ChatTurn, deps: PipelineDeps, model: ChatModel) -> Answer:
    vault = PlaceholderVault()
    started = time.perf_counter()
    try:
        messages = await greeting_messages(turn, deps, vault)
        completion = await model.complete(
            messages,
            temperature=deps.config.greeting_temperature,
            max_tokens=deps.config.greeting_max_tokens,
        )
    except ModelUnavailable as exc:
        _log.info("greeting model unavailable (%s): template used", exc.reason)
        return _template(turn, exc.reason)
    except Exception as exc:  # noqa: BLE001 - a greeting never fails
        _log.warning("greeting failed: %s", type(exc).__name__)
        return _template(turn, "greeting_failed")
    if not completion.text.strip():
        return _template(turn)
    return Answer(
        vault.restore(completion.text.strip()),
        model_latency_ms=completion.latency_ms or (time.perf_counter() - started) * 1000,
        tokens={"prompt": completion.prompt_tokens, "completion": completion.completion_tokens},
    )
