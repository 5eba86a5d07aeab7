"""The ChatModel contract, held by the fake and by the OpenAI adapter on a real llama.cpp
server, each bare and behind the circuit breaker."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest

from pipelines.ports import ChatModel, Message, ModelUnavailable
from service.adapters.model.guarded_chat import GuardedChatModel
from service.adapters.model.openai_chat import OpenAIChatModel
from tests.fakes.chat_model import FakeChatModel
from tests.integration.llm_server import free_port, llm_server
from tests.integration.loopback_stubs import record_and_forward

__all__ = ["llm_server"]  # the session fixture, shared with tests/integration

PROMPT = [
    Message("system", "You are a helpful assistant. Answer briefly."),
    Message("user", "Name one colour of the rainbow."),
]
MAX_TOKENS = 12


def _real(request: pytest.FixtureRequest) -> OpenAIChatModel:
    server = request.getfixturevalue("llm_server")
    return OpenAIChatModel(server.base_url, None, server.model, timeout_s=60, max_retries=0)


LIVE_KINDS = [
    "fake",
    "guarded-fake",
    pytest.param("openai-llama", marks=pytest.mark.llm),
    pytest.param("guarded-openai-llama", marks=pytest.mark.llm),
]


@pytest.fixture(params=LIVE_KINDS)
async def model(request: pytest.FixtureRequest) -> AsyncIterator[ChatModel]:
    inner: ChatModel
    if request.param.endswith("fake"):
        inner = FakeChatModel(replies=["Red is a colour of the rainbow."])
    else:
        inner = _real(request)
    yield GuardedChatModel(inner, fail_max=1) if request.param.startswith("guarded") else inner
    if isinstance(inner, OpenAIChatModel):
        await inner.close()


@pytest.fixture(params=["fake", "guarded-fake", "openai-closed-port", "guarded-openai-closed-port"])
async def broken_model(request: pytest.FixtureRequest) -> AsyncIterator[ChatModel]:
    inner: ChatModel
    if request.param.endswith("fake"):
        inner = FakeChatModel(fail=True)
    else:
        inner = OpenAIChatModel(f"http://127.0.0.1:{free_port()}/v1", None, "m", max_retries=0)
    yield GuardedChatModel(inner, fail_max=5) if request.param.startswith("guarded") else inner
    if isinstance(inner, OpenAIChatModel):
        await inner.close()


def test_implements_the_port(model: ChatModel) -> None:
    assert isinstance(model, ChatModel)


async def test_complete_returns_text_tokens_and_latency(model: ChatModel) -> None:
    completion = await model.complete(PROMPT, temperature=0.0, max_tokens=MAX_TOKENS)
    assert isinstance(completion.text, str) and completion.text.strip()
    assert completion.prompt_tokens > 0
    assert 0 < completion.completion_tokens <= MAX_TOKENS
    assert completion.latency_ms >= 0


async def test_stream_yields_text_pieces_then_its_completion(model: ChatModel) -> None:
    stream = model.stream(PROMPT, temperature=0.0, max_tokens=MAX_TOKENS)
    pieces = [piece async for piece in stream]
    assert pieces and all(isinstance(piece, str) for piece in pieces)
    assert "".join(pieces).strip()
    completion = getattr(stream, "completion", None)  # extra, beyond the port's iterator
    assert completion is not None and completion.text == "".join(pieces)
    assert 0 < completion.completion_tokens <= MAX_TOKENS


@dataclass
class Probed:
    model: ChatModel
    probes: Callable[[], int]  # how many readiness probes the model's backend has answered


@pytest.fixture(params=LIVE_KINDS)
async def probed(request: pytest.FixtureRequest) -> AsyncIterator[Probed]:
    """A serving model whose backend counts probes: the fake's `pings`, or a recording
    proxy in front of the llama.cpp server counting GET /v1/models."""
    guarded = request.param.startswith("guarded")
    if request.param.endswith("fake"):
        fake = FakeChatModel(replies=["Red is a colour of the rainbow."])
        yield Probed(GuardedChatModel(fake, fail_max=1) if guarded else fake, lambda: fake.pings)
        return
    server = request.getfixturevalue("llm_server")
    with record_and_forward(server.base_url) as proxy:
        real = OpenAIChatModel(proxy.url, None, server.model, timeout_s=60, max_retries=0)
        try:
            served = GuardedChatModel(real, fail_max=1) if guarded else real
            yield Probed(served, lambda: proxy.count("/models"))
        finally:
            await real.close()


async def test_ping_probes_the_serving_model_and_leaves_it_serving(probed: Probed) -> None:
    assert probed.probes() == 0
    assert await probed.model.ping() is None
    assert probed.probes() == 1  # a real probe of the backend, not a no-op
    completion = await probed.model.complete(PROMPT, temperature=0.0, max_tokens=MAX_TOKENS)
    assert completion.text.strip()
    assert probed.probes() == 1  # answering a chat is not a probe
    # (that ping raises ModelUnavailable when the model is down: see the test below)


async def test_failures_are_model_unavailable_with_a_reason(broken_model: ChatModel) -> None:
    with pytest.raises(ModelUnavailable) as completed:
        await broken_model.complete(PROMPT, temperature=0.0, max_tokens=MAX_TOKENS)
    with pytest.raises(ModelUnavailable) as streamed:
        async for _ in broken_model.stream(PROMPT, temperature=0.0, max_tokens=MAX_TOKENS):
            pass
    with pytest.raises(ModelUnavailable):
        await broken_model.ping()
    for error in (completed.value, streamed.value):
        assert error.reason and error.reason.isidentifier()
