"""OpenAIChatModel: the ChatModel port over any OpenAI-compatible chat completions endpoint."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import httpx2
import openai
from openai import AsyncOpenAI, AsyncStream
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from pipelines.ports import Completion, Message, ModelUnavailable
from service.adapters.model.chat_stream import ChatStream, StreamsDeltas


def failure_reason(exc: BaseException) -> str:
    """A short, stable code for why a call to the model failed (never the vendor message)."""
    if isinstance(exc, TimeoutError | openai.APITimeoutError | httpx2.TimeoutException):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError | httpx2.TransportError):
        return "connection"
    if isinstance(exc, openai.RateLimitError):
        return "rate_limited"
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return "auth"
    if isinstance(exc, openai.APIStatusError):
        return "http_5xx" if exc.status_code >= 500 else "http_4xx"
    if isinstance(exc, openai.OpenAIError | httpx2.HTTPError | ValueError):
        return "bad_response"
    return "error"


async def _within[T](timeout_s: float, request: Callable[[], Awaitable[T]]) -> T:
    """Awaits one request to the model within `timeout_s`; any failure is ModelUnavailable."""
    try:
        async with asyncio.timeout(timeout_s):
            return await request()
    except Exception as exc:
        raise ModelUnavailable(failure_reason(exc)) from exc


def _payload(messages: Sequence[Message]) -> list[Any]:
    return [{"role": message.role, "content": message.content} for message in messages]


class OpenAIChatModel(StreamsDeltas):
    """Chat through `AsyncOpenAI`; every failure becomes ModelUnavailable(reason).

    `timeout_s` bounds one `complete()` call, the client's own retries included, and each
    wait of a stream (for the response, then for every next delta). `max_retries` is the
    OpenAI client's retry count for connection errors, 408/409/429 and 5xx answers.
    `frequency_penalty` and `presence_penalty` (-2 to 2) go with every request when not 0.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        connect_timeout_s: float = 5.0,
        stream_usage: bool = True,
        frequency_penalty: float = 0.0,
        presence_penalty: float = 0.0,
    ) -> None:
        self.model = model
        # sent only when set: 0 is the API's default, and some compatible servers lack them
        penalties = {"frequency_penalty": frequency_penalty, "presence_penalty": presence_penalty}
        self._sampling: dict[str, Any] = {k: v for k, v in penalties.items() if v}
        self._timeout_s = timeout_s
        self._stream_usage = stream_usage
        self._client = AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "unused",  # local servers need none, the SDK insists on one
            timeout=openai.Timeout(timeout_s, connect=min(connect_timeout_s, timeout_s)),
            max_retries=max_retries,
        )

    async def complete(
        self, messages: Sequence[Message], *, temperature: float, max_tokens: int
    ) -> Completion:
        started = time.perf_counter()
        response: ChatCompletion = await self._create(messages, temperature, max_tokens)
        if not response.choices:
            raise ModelUnavailable("bad_response")
        usage = response.usage
        return Completion(
            text=response.choices[0].message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            latency_ms=(time.perf_counter() - started) * 1000,
        )

    async def _deltas(
        self, messages: Sequence[Message], temperature: float, max_tokens: int, out: ChatStream
    ) -> AsyncIterator[str]:
        started = time.perf_counter()
        extra: dict[str, Any] = {}
        if self._stream_usage:
            extra["stream_options"] = {"include_usage": True}
        response: AsyncStream[ChatCompletionChunk] = await self._create(
            messages, temperature, max_tokens, stream=True, **extra
        )
        text: list[str] = []
        usage = None
        try:
            async with response:  # closes the HTTP response even if the caller stops early
                async for chunk in response:
                    usage = chunk.usage or usage
                    delta = chunk.choices[0].delta.content if chunk.choices else None
                    if delta:
                        text.append(delta)
                        yield delta
        except Exception as exc:
            raise ModelUnavailable(failure_reason(exc)) from exc
        out.completion = Completion(
            text="".join(text),
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else len(text),
            latency_ms=(time.perf_counter() - started) * 1000,
        )

    async def ping(self) -> None:
        """A cheap readiness probe: lists the served models, no retries, short timeout."""
        budget = min(self._timeout_s, 5.0)
        await _within(
            budget, lambda: self._client.with_options(max_retries=0, timeout=budget).models.list()
        )

    async def _create(
        self, messages: Sequence[Message], temperature: float, max_tokens: int, **more: Any
    ) -> Any:
        """One chat completions request (for a stream: until its response has started)."""
        return await _within(
            self._timeout_s,
            lambda: self._client.chat.completions.create(
                model=self.model,
                messages=_payload(messages),
                temperature=temperature,
                max_tokens=max_tokens,
                **self._sampling,
                **more,
            ),
        )

    async def close(self) -> None:
        await self._client.close()
