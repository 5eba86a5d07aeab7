"""The edge shortcut of SPEC section 1 at the HTTP edge: `POST /v1/chat` with an abusive
message is answered without FastAPI's routing, dependency solving and body validation
(together several times the cost of the refusal itself).

A pure ASGI middleware, innermost of the app's own (inside BodyLimitMiddleware, which caps
the body). For the ordinary request (a JSON content type, a valid bearer token, a body that
is a valid `ChatRequest` whose message passes `ChatService.accept`) it makes the message's
one classification. An abusive message that the rate limit admits is answered here, by
`ChatService.answer`, as the route would answer it. Anything else goes on to FastAPI with
the body exactly as received and, when the message was accepted, the `AcceptedMessage` on
the request's state, so the route does not check or classify it again.
"""

from __future__ import annotations

import json
from collections import deque

from fastapi import Request, Response
from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.answer import answer_json
from service.auth.tokens import Principal
from service.chat import AcceptedMessage, ChatService
from service.container import Container
from service.errors import ServiceError
from service.http.deps import ACCEPTED_STATE, ChatRequest, admit, authenticate, container_of

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
        accepted = _accepted(body, parts[0].chat) if body is not None else None
        response = None
        if accepted is not None:
            setattr(request.state, ACCEPTED_STATE, accepted)
            if accepted.verdict.query_type == "abusive":
                response = await _refusal(parts, accepted)
        if response is None:
            await self.app(scope, _replaying(received, receive), send)
        else:
            await response(scope, receive, send)


async def _refusal(
    parts: tuple[Container, Principal], accepted: AcceptedMessage
) -> Response | None:
    """The route's answer to an abusive message; None when the rate limit refuses it (the
    route then refuses it again: a refusal counts nothing)."""
    container, user = parts
    try:
        admit(container, user)
    except ServiceError:
        return None
    outcome = await container.chat.answer(user, accepted)
    return Response(answer_json(outcome), media_type="application/json")


def _is_chat(scope: Scope, path: str) -> bool:
    if scope["type"] != "http" or scope["method"] != "POST":
        return False
    full, root = scope["path"], scope.get("root_path", "")
    return (full[len(root) :] if root and full.startswith(root) else full) == path


async def _caller_parts(request: Request) -> tuple[Container, Principal] | None:
    """The container and the verified caller, if the headers are ordinary; else None."""
    content_type = request.headers.get("content-type", "")
    if content_type.partition(";")[0].strip().lower() != "application/json":
        return None
    if "idempotency-key" in request.headers:  # the route answers it, once per key
        return None
    try:
        container = container_of(request)
        token = request.headers.get("authorization", "")
        scheme, _, credentials = token.partition(" ")
        if scheme.lower() != "bearer":
            return None
        return container, await authenticate(container, credentials)
    except ServiceError:
        return None


def _accepted(body: bytes, chat: ChatService) -> AcceptedMessage | None:
    """The accepted message, if the body is a valid ChatRequest whose message passes the
    checks; else None (the route answers with the error)."""
    try:
        message = ChatRequest.model_validate(json.loads(body)).message  # as Starlette parses it
        return chat.accept(message)
    except (ValueError, RecursionError, ValidationError, ServiceError):
        return None


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
