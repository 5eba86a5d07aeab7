"""One error shape for every failure: `{"error": "<stable_code>", "detail": "<human message>"}`.

Validation errors report where and what, never the submitted value (it may be personal data).
The catch-all handler logs the exception type and stack frames only (no message, no locals).
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("warden.errors")


class ErrorBody(BaseModel):
    """The JSON body of every error response (declared in the OpenAPI schema)."""

    error: str
    detail: str | list[dict[str, Any]]


class ServiceError(Exception):
    """An expected failure with a stable machine-readable code and an HTTP status."""

    def __init__(
        self,
        code: str,
        detail: str,
        status: int = 400,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.headers = dict(headers or {})


_CODE_FOR_STATUS = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    503: "unavailable",
}


def error_response(
    code: str, detail: Any, status: int, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status, headers=headers)


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entry declaring the error envelope for the given statuses."""
    return {status: {"model": ErrorBody} for status in statuses}


async def _service_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return error_response(exc.code, exc.detail, exc.status, exc.headers)


def _unparsable_json(exc: HTTPException) -> bool:
    """FastAPI's 400 for a JSON body it could not decode at all (not UTF-8: a ValueError;
    nested too deep: a RecursionError), as opposed to bad JSON text (its own 422)."""
    return exc.status_code == 400 and isinstance(exc.__cause__, ValueError | RecursionError)


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> str:
    """Every method some route takes at this path (Starlette's 405 names one route's only)."""
    routes = request.app.router.routes
    return ", ".join(
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes
        )
    )


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if _unparsable_json(exc):
        return error_response("malformed_json", "The request body is not valid JSON.", 422)
    code = getattr(exc, "code", None) or _CODE_FOR_STATUS.get(exc.status_code, "http_error")
    detail = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = allowed_methods(request)
    return error_response(code, detail, exc.status_code, headers)


_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
_PLACEHOLDERS = {"<extra>", "<key>", "[key]"}


def safe_location(loc: tuple[Any, ...], error_type: str) -> list[str | int]:
    """`loc` with every part the client chose as a key replaced: an unknown key (extra_forbidden)
    becomes "<extra>", a dict key (before "[key]", or not shaped like a field name) "<key>"."""
    parts: list[str | int] = [part if isinstance(part, int) else str(part) for part in loc]
    if error_type == "extra_forbidden" and parts and not isinstance(parts[-1], int):
        parts[-1] = "<extra>"
    for i, part in enumerate(parts):
        if part == "[key]" and i > 0:
            parts[i - 1] = "<key>"
    return [
        p if isinstance(p, int) or p in _PLACEHOLDERS or _FIELD_NAME.fullmatch(p) else "<key>"
        for p in parts
    ]


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = exc.errors()
    if any(p.get("type") == "json_invalid" for p in problems):
        return error_response("malformed_json", "The request body is not valid JSON.", 422)
    # Only where and what: `input` and `ctx` can carry the submitted value, so they are dropped.
    fields = [
        {
            "loc": safe_location(tuple(p.get("loc", ())), str(p.get("type", ""))),
            "msg": str(p.get("msg", "invalid")),
        }
        for p in problems
    ]
    return error_response("invalid_request", fields, 422)


class CatchAllMiddleware:
    """Turns any unhandled exception into a 500 `internal_error` that leaks nothing.

    It sits inside Starlette's ServerErrorMiddleware and does not re-raise, so neither the
    response nor the server's log ever carries the exception's message (it may hold user text).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            frames = "".join(traceback.format_tb(exc.__traceback__))
            log.error("unhandled %s on %s\n%s", type(exc).__name__, scope.get("path"), frames)
            if not started:
                response = error_response(
                    "internal_error", "Something went wrong on our side.", 500
                )
                await response(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
