"""Request body cap: a declared Content-Length over the cap is refused before anything is read,
and a streamed (chunked) body is counted as it arrives. Both give 413 `body_too_large`."""

from __future__ import annotations

from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import error_response

LimitFor = Callable[[str, str], int]  # (method, path) -> cap in bytes


class BodyTooLarge(HTTPException):
    """Raised from `receive` once a streamed body passes the cap; rendered by the error handler."""

    code = "body_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit} bytes.")


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimitMiddleware:
    """`limit_for(method, path)` gives the cap in bytes for one request."""

    def __init__(self, app: ASGIApp, limit_for: LimitFor) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("method", "GET"), scope.get("path", "/"))
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            response = error_response(
                "body_too_large", f"The request body is larger than {limit} bytes.", 413
            )
            await response(scope, receive, send)
            return

        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge as exc:  # read outside a route (no handler saw it)
            if started:
                raise
            await error_response(exc.code, str(exc.detail), 413)(scope, receive, send)
