"""The edge shortcut of SPEC section 1 at the HTTP edge: `POST /v1/chat` with an abusive
message is answered without FastAPI's routing, dependency solving and body validation
(together several times the cost of the refusal itself).

A pure ASGI middleware, innermost of the app's own (inside BodyLimitMiddleware, which caps
the body). It answers only the ordinary case: a JSON content type, a valid bearer token, a
body that is a valid `ChatRequest` whose message passes the message checks and classifies
as abusive, and a caller the rate limit admits. It answers with the route's own functions
(`answer_chat`, `chat_response`), so the refusal, trace event, metrics and rate limit
accounting are the route's. Everything else (any error included) goes on to FastAPI with
the body exactly as received, so errors are handled in one place.
"""

from __future__ import annotations

import json
from collections import deque

from fastapi import Request, Response
from pydantic import ValidationError
from starlette._utils import get_route_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pipelines.safety.classify import Classification, classify_message
from service.auth.tokens import Principal
from service.bootstrap import Container
from service.chat_input import check_message
from service.errors import ServiceError
from service.http.chat import ChatRequest, answer_chat, chat_response
from service.http.deps import admitted_caller, authenticate, bearer, container_of

CHAT_PATH = "/v1/chat"


class FastRejectMiddleware:
    def __init__(self, app: ASGIApp, path: str = CHAT_PATH) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_chat(scope, self.path):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        parts = await _caller_parts(request)
        if parts is None:  # nothing read yet: FastAPI gets the request untouched
            await self.app(scope, receive, send)
            return
        received, body = await _read_body(receive)
        response = await _rejection(request, parts, body) if body is not None else None
        if response is None:
            await self.app(scope, _replaying(received, receive), send)
        else:
            await response(scope, receive, send)


async def _rejection(
    request: Request, parts: tuple[Container, Principal], body: bytes
) -> Response | None:
    """The route's answer to an abusive message; None for anything else."""
    container, user = parts
    abusive = _abusive_message(body, container)
    if abusive is None:
        return None
    message, verdict = abusive
    try:  # counts this request against the caller's limit, as the route's check does
        caller = admitted_caller(request, container, user)
    except ServiceError:  # 429: the route refuses it again (a refusal counts nothing)
        return None
    return chat_response(await answer_chat(caller, message, verdict))


def _is_chat(scope: Scope, path: str) -> bool:
    return scope["type"] == "http" and scope["method"] == "POST" and get_route_path(scope) == path


async def _caller_parts(request: Request) -> tuple[Container, Principal] | None:
    """The container and the verified caller, if the headers are ordinary; else None."""
    content_type = request.headers.get("content-type", "")
    if content_type.partition(";")[0].strip().lower() != "application/json":
        return None
    try:
        container = container_of(request)
        return container, authenticate(container, await bearer(request))
    except ServiceError:
        return None


def _abusive_message(body: bytes, container: Container) -> tuple[str, Classification] | None:
    """The message, if the body is a valid ChatRequest whose message passes the checks and
    classifies as abusive; else None (the route decides)."""
    try:
        message = ChatRequest.model_validate(json.loads(body)).message  # as Starlette parses it
        check_message(message, container.settings.max_message_chars)
    except (ValueError, RecursionError, ValidationError, ServiceError):
        return None
    verdict = classify_message(message, container.config.safety)
    return (message, verdict) if verdict.query_type == "abusive" else None


async def _read_body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """Every message received, and the whole body (None if the client went away first).
    A body over the cap raises BodyTooLarge from BodyLimitMiddleware's `receive`."""
    received: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return received, None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return received, b"".join(chunks)


def _replaying(received: list[Message], receive: Receive) -> Receive:
    """A `receive` that gives back what was already read, then carries on."""
    pending = deque(received)

    async def replay() -> Message:
        return pending.popleft() if pending else await receive()

    return replay
