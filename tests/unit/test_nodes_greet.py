"""greet node: a template without a model, else one short warm call with the name masked."""

from __future__ import annotations

from pipelines.metering import metering
from pipelines.nodes.greet import greet, template_greeting
from pipelines.state import PipelineState
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import NAME, Kit, chat_turn, runtime, texts_seen, verdict


def greeting_state(query: str = "good morning!", name: str = NAME) -> PipelineState:
    return {"turn": chat_turn(query, name=name), "verdict": verdict("greeting", "greeting.hello")}


async def test_without_a_model_it_is_a_template_with_the_users_name() -> None:
    kit = Kit(chat_model=None)
    with metering() as calls:
        update = await greet(greeting_state(), runtime(kit.deps()))
    assert set(update) == {"answer"}
    answer = update["answer"]
    assert answer.response == template_greeting(NAME) and NAME in answer.response
    assert answer.mode is None and answer.tokens == {"prompt": 0, "completion": 0}
    assert answer.error is None and answer.model_latency_ms == 0.0
    assert calls.as_dict() == {"llm": 0, "embed": 0, "vector": 0, "store": 0}


def test_template_without_a_name() -> None:
    assert template_greeting("  ").startswith("Hello! ")


async def test_one_short_warm_call_with_the_name_as_a_placeholder_restored_locally() -> None:
    kit = Kit(chat_model=FakeChatModel(replies=["Good morning, <PERSON_1>! Ask away."]))
    with metering() as calls:
        update = await greet(greeting_state(), runtime(kit.deps(spy=True)))
    assert calls.as_dict() == {"llm": 1, "embed": 0, "vector": 0, "store": 0}
    assert kit.chat_model is not None
    [call] = kit.chat_model.calls
    assert call.kwargs == {"temperature": 0.9, "max_tokens": 150}
    system, user = call.messages
    assert system.role == "system" and "<PERSON_1>" in system.content
    assert user.content == "good morning!"
    assert NAME not in texts_seen(kit)
    answer = update["answer"]
    assert answer.response == f"Good morning, {NAME}! Ask away."
    assert answer.tokens == {"prompt": 10, "completion": 5} and answer.mode is None
    assert answer.model_latency_ms > 0 and answer.error is None


async def test_personal_data_in_the_greeting_itself_is_masked() -> None:
    kit = Kit(chat_model=FakeChatModel(replies=["Hi!"]))
    state = greeting_state("hi, Asha Rao here, asha@example.org")
    await greet(state, runtime(kit.deps(spy=True)))
    assert kit.chat_model is not None
    assert kit.chat_model.last_messages[1].content == "hi, <PERSON_1> here, <EMAIL_ADDRESS_1>"
    assert "asha@example.org" not in texts_seen(kit)


async def test_an_unavailable_model_falls_back_to_the_template() -> None:
    kit = Kit(chat_model=FakeChatModel(fail=True, fail_reason="timeout"))
    update = await greet(greeting_state(), runtime(kit.deps()))
    answer = update["answer"]
    assert answer.response == template_greeting(NAME)
    assert answer.error == "timeout" and answer.mode is None


async def test_a_blank_reply_falls_back_to_the_template() -> None:
    kit = Kit(chat_model=FakeChatModel(replies=[" "]))
    update = await greet(greeting_state(), runtime(kit.deps()))
    assert update["answer"].response == template_greeting(NAME)
