"""OpenAIChatModel and GuardedChatModel against a real llama.cpp server and loopback stubs."""

from __future__ import annotations

import time

import pytest

from pipelines.ports import Message, ModelUnavailable
from service.adapters.model.guarded_chat import GuardedChatModel
from service.adapters.model.openai_chat import OpenAIChatModel
from tests.integration.llm_server import LlmServer, free_port
from tests.integration.loopback_stubs import answer_with, never_answer, record_and_forward

QUESTION = [
    Message("system", "You are a helpful assistant. Answer briefly."),
    Message("user", "What is the capital of France?"),
]


def model_at(url: str, **options: float) -> OpenAIChatModel:
    return OpenAIChatModel(url, "test-key", "smollm2-135m", **options)  # type: ignore[arg-type]


@pytest.mark.llm
async def test_complete_returns_text_and_token_counts(llm_server: LlmServer) -> None:
    model = model_at(llm_server.base_url, timeout_s=60)
    completion = await model.complete(QUESTION, temperature=0.0, max_tokens=16)
    assert completion.text.strip()
    assert completion.prompt_tokens > 0
    assert 0 < completion.completion_tokens <= 16
    assert completion.latency_ms > 0
    await model.close()


@pytest.mark.llm
async def test_stream_yields_several_deltas_then_usage(llm_server: LlmServer) -> None:
    model = model_at(llm_server.base_url, timeout_s=60)
    stream = model.stream(QUESTION, temperature=0.0, max_tokens=16)
    pieces = [piece async for piece in stream]
    assert len(pieces) > 1 and all(isinstance(piece, str) and piece for piece in pieces)
    assert stream.completion is not None
    assert stream.completion.text == "".join(pieces)
    assert stream.completion.prompt_tokens > 0
    assert 0 < stream.completion.completion_tokens <= 16
    await model.close()


@pytest.mark.llm
async def test_the_history_window_reaches_the_server_exactly(llm_server: LlmServer) -> None:
    history = [
        Message("user" if turn % 2 == 0 else "assistant", f"history message {turn}")
        for turn in range(6)
    ]
    messages = [Message("system", "Answer briefly."), *history, Message("user", "And now?")]
    with record_and_forward(llm_server.base_url) as proxy:
        model = model_at(proxy.url, timeout_s=60)
        completion = await model.complete(messages, temperature=0.3, max_tokens=8)
        await model.close()
    assert completion.text.strip()
    [(method, path, body)] = proxy.requests
    assert (method, path) == ("POST", "/v1/chat/completions")
    assert body["messages"] == [{"role": m.role, "content": m.content} for m in messages]
    assert body["temperature"] == 0.3 and body["max_tokens"] == 8
    assert body["model"] == "smollm2-135m"


@pytest.mark.llm
async def test_sampling_penalties_are_sent_only_when_set(llm_server: LlmServer) -> None:
    with record_and_forward(llm_server.base_url) as proxy:
        for options in ({}, {"frequency_penalty": 0.5, "presence_penalty": -0.25}):
            model = model_at(proxy.url, timeout_s=60, **options)
            completion = await model.complete(QUESTION, temperature=0.3, max_tokens=4)
            await model.close()
            assert completion.text.strip()  # llama.cpp takes them
    plain, penalised = (body for _, _, body in proxy.requests)
    assert "frequency_penalty" not in plain and "presence_penalty" not in plain
    assert (penalised["frequency_penalty"], penalised["presence_penalty"]) == (0.5, -0.25)


@pytest.mark.llm
async def test_ping_succeeds_on_a_live_server(llm_server: LlmServer) -> None:
    with record_and_forward(llm_server.base_url) as proxy:
        model = model_at(proxy.url)
        try:
            assert await model.ping() is None
        finally:
            await model.close()
    # one probe that lists the served models; nothing is generated
    assert proxy.requests == [("GET", "/v1/models", None)]


async def test_a_server_that_never_answers_times_out_within_the_budget() -> None:
    with never_answer() as stub:
        model = model_at(stub.url, timeout_s=0.3, max_retries=2)
        started = time.perf_counter()
        with pytest.raises(ModelUnavailable) as complete_error:
            await model.complete(QUESTION, temperature=0.0, max_tokens=8)
        with pytest.raises(ModelUnavailable) as stream_error:
            async for _ in model.stream(QUESTION, temperature=0.0, max_tokens=8):
                pass
        elapsed = time.perf_counter() - started
        await model.close()
    assert complete_error.value.reason == stream_error.value.reason == "timeout"
    assert stub.count("/chat/completions") >= 2
    assert elapsed < 5  # two budgets of 0.3 s, with a wide margin for a loaded machine


async def test_a_closed_port_is_a_connection_failure() -> None:
    model = model_at(f"http://127.0.0.1:{free_port()}/v1", timeout_s=5, max_retries=0)
    with pytest.raises(ModelUnavailable) as error:
        await model.complete(QUESTION, temperature=0.0, max_tokens=8)
    assert error.value.reason == "connection"
    with pytest.raises(ModelUnavailable):
        await model.ping()
    await model.close()


@pytest.mark.parametrize(("status", "reason"), [(503, "http_5xx"), (429, "rate_limited")])
async def test_error_statuses_map_to_reason_codes(status: int, reason: str) -> None:
    with answer_with(status) as stub:
        model = model_at(stub.url, timeout_s=5, max_retries=1)
        with pytest.raises(ModelUnavailable) as error:
            await model.complete(QUESTION, temperature=0.0, max_tokens=8)
        await model.close()
    assert error.value.reason == reason
    assert stub.count("/chat/completions") == 2  # one try and one retry


async def test_breaker_counts_chats_not_retries_and_then_spares_the_server() -> None:
    with answer_with(503) as stub:
        inner = model_at(stub.url, timeout_s=5, max_retries=2)
        guarded = GuardedChatModel(inner, fail_max=2, reset_timeout_s=60)

        with pytest.raises(ModelUnavailable) as first:
            await guarded.complete(QUESTION, temperature=0.0, max_tokens=8)
        assert first.value.reason == "http_5xx"
        assert stub.count("/chat/completions") == 3  # 1 try + 2 retries ...
        assert guarded.breaker.fail_counter == 1  # ... are one failure
        assert guarded.state == "closed"

        with pytest.raises(ModelUnavailable) as second:
            await guarded.complete(QUESTION, temperature=0.0, max_tokens=8)
        assert second.value.reason == "http_5xx"  # the chat that trips it says what happened
        assert guarded.state == "open"
        assert stub.count("/chat/completions") == 6

        with pytest.raises(ModelUnavailable) as third:
            await guarded.complete(QUESTION, temperature=0.0, max_tokens=8)
        with pytest.raises(ModelUnavailable) as streamed:
            async for _ in guarded.stream(QUESTION, temperature=0.0, max_tokens=8):
                pass
        await inner.close()
    assert third.value.reason == streamed.value.reason == "breaker_open"
    assert stub.count("/chat/completions") == 6  # the open breaker never reached the server


@pytest.mark.llm
async def test_guarded_model_passes_a_healthy_stream_through(llm_server: LlmServer) -> None:
    inner = model_at(llm_server.base_url, timeout_s=60)
    guarded = GuardedChatModel(inner, fail_max=1)
    stream = guarded.stream(QUESTION, temperature=0.0, max_tokens=12)
    text = "".join([piece async for piece in stream])
    assert text.strip()
    assert stream.completion is not None and stream.completion.text == text
    assert guarded.state == "closed" and guarded.breaker.fail_counter == 0
    await inner.close()
