"""The correction loop with the real small model (llama.cpp + SmolLM2-135M on loopback).

A 135M model cites badly often, so this exercises the loop for real: whatever it writes, the
chat costs at most 1 + WARDEN_ANSWER_RETRIES calls and what leaves is a checked answer or the
extractive fallback. Rates over 30 sample-KB questions: bench/eval_answer_gate.py (README).
"""

from __future__ import annotations

import pytest

from pipelines.answer_gate import REASONS
from pipelines.answer_text import citations, placeholders
from pipelines.nodes.degrade import GATED_LABEL
from pipelines.runner import ChatPipeline
from service.adapters.model.openai_chat import OpenAIChatModel
from tests.integration.llm_server import LlmServer
from tests.unit._pipeline_kit import NAME, USER, seeded_kit

QUESTIONS = [
    "When must a landlord return the security deposit? Mail asha@example.org",
    "Where can I file a First Information Report?",
]


@pytest.mark.llm
@pytest.mark.parametrize("question", QUESTIONS)
async def test_the_real_model_answers_through_the_gate_within_the_cap(
    llm_server: LlmServer, question: str
) -> None:
    model = OpenAIChatModel(llm_server.base_url, "test-key", llm_server.model, timeout_s=120)  # type: ignore[arg-type]
    kit = await seeded_kit(chat_model=model)  # type: ignore[arg-type]
    kit.with_config(answer_max_tokens=96)
    pipeline = ChatPipeline(kit.deps())
    try:
        outcome = await pipeline.answer(
            question, pipeline.classify(question), user_id=USER, user_name=NAME
        )
    finally:
        await model.close()
    assert 1 <= outcome.calls.llm == outcome.answer_attempts <= 2  # 1 + the default retry
    assert set(outcome.gate_reasons) <= set(REASONS)
    assert outcome.mode in ("generated", "degraded")
    if outcome.mode == "generated":
        assert len(outcome.gate_reasons) == outcome.answer_attempts - 1
    else:
        assert outcome.gate_fallback and outcome.response.startswith(GATED_LABEL)
        assert outcome.error == f"gate_{outcome.gate_reasons[-1]}"
    assert all(1 <= n <= len(outcome.sources) for n in citations(outcome.response))
    assert placeholders(outcome.response) == []
