"""`X-Warden-Instance` on every response: a random id of the serving process (never its pid),
so an operator behind a load balancer, or a test of `warden serve --workers N`, can tell which
worker answered."""

from __future__ import annotations

import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-warden-instance"


class InstanceHeaderMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.instance = secrets.token_hex(6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        value = self.instance.encode()

        async def with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (HEADER, value)]
            await send(message)

        await self.app(scope, receive, with_header)
