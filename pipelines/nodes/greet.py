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
from pipelines.state import PipelineState

_log = logging.getLogger(__name__)
NO_TOKENS = {"prompt": 0, "completion": 0}


def template_greeting(user_name: str) -> str:
    name = " ".join(user_name.split())
    hello = f"Hello {name}!" if name else "Hello!"
    return f"{hello} I'm Warden. Ask me anything about the knowledge base and I'll cite my sources."


def _template(state: PipelineState, error: str | None = None) -> dict[str, Any]:
    return {
        "response": template_greeting(state.get("user_name", "")),
        "mode": None,
        "latency_ms": 0.0,
        "tokens": dict(NO_TOKENS),
        **({"error": error} if error else {}),
    }


async def greeting_messages(
    state: PipelineState, deps: PipelineDeps, vault: PlaceholderVault
) -> list[Message]:
    user_name = state.get("user_name", "")
    placeholder = name_placeholder(vault, user_name)
    spans = await spans_to_mask(
        state["query"], deps.detector, user_name=user_name, allowlist=deps.config.allowlist
    )
    return [
        Message("system", deps.prompts.greeting_system.render(user_name=placeholder)),
        Message("user", vault.mask(state["query"], spans)),
    ]


async def greet(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps = runtime.context
    if deps.chat_model is None:
        return _template(state)
    return await _model_greeting(state, deps, deps.chat_model)


async def _model_greeting(
    state: PipelineState, deps: PipelineDeps, model: ChatModel
) -> dict[str, Any]:
    vault = PlaceholderVault()
    started = time.perf_counter()
    try:
        messages = await greeting_messages(state, deps, vault)
        completion = await model.complete(
            messages,
            temperature=deps.config.greeting_temperature,
            max_tokens=deps.config.greeting_max_tokens,
        )
    except ModelUnavailable as exc:
        _log.info("greeting model unavailable (%s): template used", exc.reason)
        return _template(state, exc.reason)
    except Exception as exc:  # noqa: BLE001 - a greeting never fails
        _log.warning("greeting failed: %s", type(exc).__name__)
        return _template(state, "greeting_failed")
    if not completion.text.strip():
        return _template(state)
    return {
        "response": vault.restore(completion.text.strip()),
        "mode": None,
        "latency_ms": completion.latency_ms or (time.perf_counter() - started) * 1000,
        "tokens": {"prompt": completion.prompt_tokens, "completion": completion.completion_tokens},
    }
