"""generate node: gate, one masked model call, extractive and degraded answers."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from pipelines.answers import ABSTAIN, MODEL_UNAVAILABLE, SEARCH_UNAVAILABLE
from pipelines.extractive import CANDIDATES, EXTRACTIVE_LABEL
from pipelines.metering import metering
from pipelines.nodes.generate import generate
from pipelines.ports import Message
from pipelines.safety.confidence import GateCalibration
from pipelines.state import Answer, PipelineState, Retrieval
from tests.fakes.chat_model import FakeChatModel
from tests.fakes.embedder import FakeEmbedder
from tests.unit._pipeline_kit import (
    USER,
    Kit,
    question_state,
    retrieved_state,
    runtime,
    seed_temporary,
    seeded_kit,
    texts_seen,
)

DEPOSIT_Q = "When must a landlord return the security deposit?"
OFF_TOPIC = "what is the airspeed of a swallow"
EMAIL = "asha.rao@example.org"


async def run(kit: Kit, state: PipelineState) -> tuple[Answer, dict[str, int]]:
    """generate's one record, and the calls it made (retrieve's are not counted)."""
    with metering() as calls:
        update = await generate(state, runtime(kit.deps(spy=True)))
    assert set(update) == {"answer"}  # no other record is touched, e.g. the sources found
    return update["answer"], calls.as_dict()


async def test_below_the_threshold_it_abstains_without_a_model_call() -> None:
    kit = await seeded_kit()
    state = await retrieved_state(kit, OFF_TOPIC)
    assert 0 < state["retrieval"].confidence < kit.config.confidence_threshold
    answer, calls = await run(kit, state)
    assert answer.response == ABSTAIN and answer.mode == "abstained" and answer.error is None
    assert calls["llm"] == 0 and kit.chat_model is not None and kit.chat_model.calls == []
    # `run` checked that only the answer is written: the sources found stay, whatever the score


async def test_one_model_call_with_masked_context_history_and_question() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=["Within a month [1], <PERSON_1>."]))
    history = [Message("user", f"I wrote to {EMAIL}"), Message("assistant", "Noted.")]
    state = await retrieved_state(kit, f"{DEPOSIT_Q} Mail {EMAIL}", history=history)
    answer, calls = await run(kit, state)
    assert calls == {"llm": 1, "embed": 0, "vector": 0, "store": 0}
    assert kit.chat_model is not None
    [call] = kit.chat_model.calls
    assert call.kwargs == {"temperature": 0.3, "max_tokens": kit.config.answer_max_tokens}
    system, *window, user = call.messages
    assert system.role == "system" and "<PERSON_1>" in system.content
    assert window == [
        Message("user", "I wrote to <EMAIL_ADDRESS_1>"),
        Message("assistant", "Noted."),
    ]
    assert user.role == "user" and "[1] A landlord must return the security deposit" in user.content
    assert f"{DEPOSIT_Q} Mail <EMAIL_ADDRESS_1>" in user.content
    assert EMAIL not in texts_seen(kit) and "Asha Rao" not in texts_seen(kit)
    assert answer.response == "Within a month [1], Asha Rao."
    assert answer.mode == "generated" and answer.error is None
    assert answer.tokens == {"prompt": 10, "completion": 5} and answer.model_latency_ms > 0


async def test_personal_data_in_the_users_own_upload_is_masked_in_the_context() -> None:
    kit = await seeded_kit()
    upload = f"My lease: the landlord keeps the security deposit. Contact {EMAIL} or Asha Rao."
    await seed_temporary(kit.index, kit.embedder, user_id=USER, doc_id="lease", text=upload)
    state = await retrieved_state(kit, "What does my lease say about the security deposit?")
    assert "p-lease" in [s.parent_id for s in state["retrieval"].sources]
    kit.with_config(confidence_threshold=0.0)  # this test is about what the model gets
    answer, _ = await run(kit, state)
    assert answer.mode == "generated"
    assert kit.chat_model is not None
    sent = kit.chat_model.last_messages[-1].content
    assert "Contact <EMAIL_ADDRESS_1> or <PERSON_1>." in sent
    assert EMAIL not in texts_seen(kit) and "Asha Rao" not in texts_seen(kit)


async def test_without_a_model_the_answer_is_extractive_and_cited() -> None:
    kit = await seeded_kit(chat_model=None)
    state = await retrieved_state(kit, DEPOSIT_Q)
    answer, calls = await run(kit, state)
    assert calls == {"llm": 0, "embed": 1, "vector": 0, "store": 0}  # one batch of sentences
    assert answer.mode == "extractive" and answer.error is None
    label, *lines = answer.response.splitlines()
    assert label == EXTRACTIVE_LABEL
    assert 1 <= len(lines) <= kit.config.extractive_sentences
    assert lines[0] == (
        "- A landlord must return the security deposit within one month after the tenancy ends. [1]"
    )
    assert all(line.startswith("- ") and line.rstrip().endswith("]") for line in lines)


async def test_the_extractive_answer_reads_no_other_document_far_below_the_best() -> None:
    kit = await seeded_kit(chat_model=None)
    state = await retrieved_state(kit, DEPOSIT_Q)
    found = state["retrieval"]
    assert len(found.sources) >= 2
    far = [replace(s, score=0.9 if i == 0 else 0.1, doc_id=f"doc-{i}")
           for i, s in enumerate(found.sources)]  # fmt: skip
    answer, _ = await run(kit, {**state, "retrieval": replace(found, sources=tuple(far))})
    cited = {line.rsplit("[", 1)[1].rstrip("]") for line in answer.response.splitlines()[1:]}
    assert answer.mode == "extractive" and cited == {"1"}
    close = [replace(s, score=0.9, doc_id=f"doc-{i}") for i, s in enumerate(found.sources)]
    answer, _ = await run(kit, {**state, "retrieval": replace(found, sources=tuple(close))})
    cited = {line.rsplit("[", 1)[1].rstrip("]") for line in answer.response.splitlines()[1:]}
    assert cited - {"1"}  # the same passages, all close: the others give sentences too


async def test_a_failing_model_degrades_to_the_sources_and_says_so() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(fail=True, fail_reason="breaker_open"))
    state = await retrieved_state(kit, DEPOSIT_Q)
    answer, calls = await run(kit, state)
    assert answer.mode == "degraded" and answer.error == "breaker_open"
    assert answer.response.startswith(MODEL_UNAVAILABLE)
    first = state["retrieval"].sources[0]
    assert f"[1] deposit.md, page 1: {first.preview}" in answer.response
    assert calls["llm"] == 1 and answer.tokens == {"prompt": 0, "completion": 0}


class ExplodingModel(FakeChatModel):
    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("vendor error leaked past the adapter")

    def stream(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("vendor error leaked past the adapter")


async def test_an_unexpected_model_error_also_degrades() -> None:
    kit = await seeded_kit(chat_model=ExplodingModel())
    answer, _ = await run(kit, await retrieved_state(kit, DEPOSIT_Q))
    assert answer.mode == "degraded" and answer.error == "model_error"


class SlowModel(FakeChatModel):
    """Streams its reply a piece every 50 ms, never repeating itself."""

    async def _pieces(self, *args: Any, **kwargs: Any) -> Any:
        async for piece in super()._pieces(*args, **kwargs):
            await asyncio.sleep(0.05)
            yield piece


async def test_a_reply_nobody_streams_is_read_within_the_model_timeout() -> None:
    """The runaway stop reads every reply as a stream; unwatched, the whole reply keeps the
    bound of one model call and then degrades."""
    slow = SlowModel(replies=[" ".join(f"word{n}" for n in range(40)) + " [1]"])
    kit = await seeded_kit(chat_model=slow)
    kit.with_config(answer_timeout_s=0.5)
    answer, calls = await run(kit, await retrieved_state(kit, DEPOSIT_Q))
    assert answer.mode == "degraded" and answer.error == "timeout"
    assert calls["llm"] == 1

    kit.with_config(answer_timeout_s=10.0)
    answer, _ = await run(kit, await retrieved_state(kit, DEPOSIT_Q))
    assert answer.mode == "generated"


async def test_an_empty_reply_is_left_to_the_answer_gate() -> None:
    kit = await seeded_kit(chat_model=FakeChatModel(replies=["   "]))
    answer, _ = await run(kit, await retrieved_state(kit, DEPOSIT_Q))
    # check_answer refuses it (`empty`), so it is retried, then degrades (test_answer_loop.py)
    assert answer.mode == "generated" and answer.draft is not None
    assert answer.draft.reply == "   " and not answer.response.strip()


async def test_when_the_search_failed_no_model_is_called() -> None:
    kit = await seeded_kit()
    failed: PipelineState = {
        **question_state(DEPOSIT_Q),
        "retrieval": Retrieval(DEPOSIT_Q, search_text=DEPOSIT_Q, error="retrieval_unavailable"),
    }
    answer, calls = await run(kit, failed)
    assert answer.response == SEARCH_UNAVAILABLE and answer.mode == "degraded"
    assert calls["llm"] == 0


async def test_the_gate_is_the_configured_threshold() -> None:
    kit = await seeded_kit()
    state = await retrieved_state(kit, OFF_TOPIC)
    kit.with_config(confidence_threshold=state["retrieval"].confidence)  # at it: passes
    answer, calls = await run(kit, state)
    assert answer.mode == "generated" and calls["llm"] == 1


async def test_the_extractive_answer_embeds_only_a_shortlist_chosen_by_the_question() -> None:
    embedder = FakeEmbedder()
    kit = await seeded_kit(chat_model=None, embedder=embedder)
    clauses = [f"Clause {n} of my lease covers repairs to the kitchen." for n in range(20)]
    keys = "The landlord keeps the security deposit until the keys are returned."
    text = " ".join([*clauses, keys])
    await seed_temporary(kit.index, embedder, user_id=USER, doc_id="lease", text=text)
    state = await retrieved_state(kit, "When does my landlord return the security deposit?")
    assert "p-lease" in [s.parent_id for s in state["retrieval"].sources]
    embedder.batches.clear()
    answer, calls = await run(kit, state)
    assert calls["embed"] == 1 and answer.mode == "extractive"
    [batch] = embedder.batches
    assert len(batch) == CANDIDATES and keys in batch  # the last of 20+ sentences, found by words
    assert f"- {keys} [" in answer.response


async def test_the_extractive_shortlist_takes_the_searched_text_from_the_record() -> None:
    embedder = FakeEmbedder()
    kit = await seeded_kit(chat_model=None, embedder=embedder)
    clauses = [f"Clause {n} of my lease covers repairs to the kitchen." for n in range(20)]
    keys = "The landlord keeps the security deposit until the keys are returned."
    text = " ".join([*clauses, keys])
    await seed_temporary(kit.index, embedder, user_id=USER, doc_id="lease", text=text)
    state = await retrieved_state(kit, "When does my landlord return the security deposit?")
    # the record says another text was searched: generate must take it, not the question
    found = replace(state["retrieval"], search_text="kitchen repairs", expansion="")
    embedder.batches.clear()
    answer, _ = await run(kit, {**state, "retrieval": found})
    assert answer.mode == "extractive"
    [batch] = embedder.batches
    assert len(batch) == CANDIDATES and keys not in batch


async def test_a_calibrated_gate_decides_instead_of_the_threshold() -> None:
    """With a calibration installed, its cut decides whether a model is called (SPEC 6.5)."""
    kit = await seeded_kit()
    state = await retrieved_state(kit, DEPOSIT_Q)
    assert state["retrieval"].confidence >= kit.config.confidence_threshold  # 40 would answer
    refuse = GateCalibration(weights={"dense_top": 1.0}, bias=-50.0, cut=0.5)
    kit.with_config(calibration=refuse)
    answer, calls = await run(kit, state)
    assert answer.mode == "abstained" and answer.response == ABSTAIN
    assert calls["llm"] == 0 and kit.chat_model is not None and kit.chat_model.calls == []

    kit.with_config(confidence_threshold=100.0, calibration=replace(refuse, bias=50.0))
    answer, calls = await run(kit, state)
    assert answer.mode == "generated" and calls["llm"] == 1  # the cut, not the threshold
