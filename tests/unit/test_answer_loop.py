"""The correction loop in the graph: generate -> check_answer -> post_process | generate |
degrade, with a scripted model. Every attempt is a counted model call; the outcome, the trace
and the metrics carry reason codes, never the gate's feedback text."""

from __future__ import annotations

from typing import Any

from pipelines.nodes.degrade import GATED_LABEL
from pipelines.outcome import ChatOutcome
from pipelines.runner import ChatPipeline
from pipelines.streaming import Retract, StreamUpdate, Token
from service.metrics import ChatMetrics
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import NAME, USER, Kit, seeded_kit

QUESTION = "When must a landlord return the security deposit? Mail asha@example.org"
GOOD = "A landlord must return the security deposit within one month [1], <PERSON_1>."
BAD = "The deposit comes back within one month [4]."  # cites a passage that was not sent
MADE_UP = "Return the deposit within one month [1]; write to <EMAIL_ADDRESS_2>."


async def ask(kit: Kit, listener: Any = None) -> ChatOutcome:
    pipeline = ChatPipeline(kit.deps())
    return await pipeline.answer(
        QUESTION, pipeline.classify(QUESTION), user_id=USER, user_name=NAME, listener=listener
    )


def model(kit: Kit) -> FakeChatModel:
    assert kit.chat_model is not None
    return kit.chat_model


async def test_a_good_first_answer_costs_one_call_and_is_checked_once() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=[GOOD]))
    outcome = await ask(kit)
    assert outcome.mode == "generated" and outcome.calls.llm == 1
    assert (outcome.answer_attempts, outcome.gate_reasons, outcome.gate_fallback) == (1, (), False)
    assert outcome.response == GOOD.replace("<PERSON_1>", NAME)


async def test_bad_then_good_retries_once_with_the_reason_in_the_prompt() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=[BAD, GOOD]))
    outcome = await ask(kit)
    assert outcome.mode == "generated" and outcome.error is None
    assert outcome.response == GOOD.replace("<PERSON_1>", NAME)
    assert outcome.calls.llm == 2 and len(model(kit).calls) == 2
    assert (outcome.answer_attempts, outcome.gate_reasons, outcome.gate_fallback) == (
        2, ("unknown_citation",), False,
    )  # fmt: skip
    first, retry = (call.messages[-1].content for call in model(kit).calls)
    count = len(outcome.sources)
    assert "refused" not in first
    assert f"You cited [4]; only passages 1-{count} exist." in retry
    assert outcome.tokens == {"prompt": 20, "completion": 10}  # both attempts


async def test_bad_bad_degrades_to_the_extractive_answer_after_one_retry() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=[BAD, MADE_UP, GOOD]))
    outcome = await ask(kit)
    assert outcome.calls.llm == 2  # 1 + WARDEN_ANSWER_RETRIES (default 1)
    assert outcome.mode == "degraded" and outcome.error == "gate_unknown_placeholder"
    assert outcome.gate_reasons == ("unknown_citation", "unknown_placeholder")
    assert outcome.gate_fallback and outcome.answer_attempts == 2
    assert outcome.response.startswith(GATED_LABEL)
    assert "[4]" not in outcome.response and "<" not in outcome.response
    assert outcome.calls.embed == 2  # the query, then the extractive sentences


async def test_the_cap_is_configurable() -> None:
    for retries in (0, 2):
        kit = (await seeded_kit(chat_model=FakeChatModel(replies=[BAD]))).with_config(
            answer_retries=retries
        )
        outcome = await ask(kit)
        assert outcome.calls.llm == 1 + retries == outcome.answer_attempts
        assert outcome.mode == "degraded" and outcome.gate_reasons == ("unknown_citation",) * (
            1 + retries
        )


async def test_an_empty_reply_is_retried() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=["  ", GOOD]))
    outcome = await ask(kit)
    assert outcome.mode == "generated" and outcome.gate_reasons == ("empty",)
    assert outcome.calls.llm == 2


async def test_answers_not_from_the_model_are_not_checked() -> None:
    kit = await seeded_kit(chat_model=None)
    outcome = await ask(kit)
    assert outcome.mode == "extractive" and outcome.answer_attempts == 0
    kit = await seeded_kit(chat_model=FakeChatModel(fail=True))
    outcome = await ask(kit)
    assert outcome.mode == "degraded" and outcome.answer_attempts == 0 and outcome.calls.llm == 1


async def test_the_trace_and_metrics_carry_codes_only() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=[BAD, MADE_UP]))
    outcome = await ask(kit)
    [event] = kit.tracer.events
    assert event["answer_gate"] == {
        "attempts": 2, "reasons": ["unknown_citation", "unknown_placeholder"], "degraded": True,
    }  # fmt: skip
    assert "cited" not in repr(event) and "EMAIL_ADDRESS_2" not in repr(event)
    metrics = ChatMetrics()
    metrics.observe(outcome)
    text = metrics.render()[0].decode()
    assert 'warden_answer_gate_failures_total{reason="unknown_citation"} 1.0' in text
    assert 'warden_answer_gate_failures_total{reason="unknown_placeholder"} 1.0' in text
    assert "warden_answer_retries_total 1.0" in text
    assert "warden_answer_fallbacks_total 1.0" in text
    assert 'warden_chat_errors_total{code="gate_unknown_placeholder"} 1.0' in text


async def test_a_streamed_retry_retracts_what_was_shown() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=[BAD, GOOD]))
    updates: list[StreamUpdate] = []
    outcome = await ask(kit, updates.append)
    kinds = [type(u).__name__ for u in updates]
    assert kinds.count("Retract") == 1
    cut = kinds.index("Retract")
    shown = "".join(u.text for u in updates[cut:] if isinstance(u, Token))
    assert "".join(u.text for u in updates[:cut] if isinstance(u, Token)) == BAD
    assert shown == outcome.response and isinstance(updates[cut], Retract)
