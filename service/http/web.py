"""The web page: `GET /` and its few static files (service/web/static/), under a strict policy.

The page is plain HTML, CSS and JavaScript that talks only to the public `/v1` API. Only the
files in that folder are served, each with its type; every answer carries a Content-Security-
Policy that allows no inline script, no other host (`connect-src 'self'`) and no framing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Response

from service.errors import ServiceError

STATIC_DIR = Path(__file__).resolve().parents[1] / "web" / "static"
ASSET_PREFIX = "/web/"
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-cache",
}

web_router = APIRouter(include_in_schema=False)


@cache
def static_files() -> dict[str, tuple[bytes, str]]:
    """Name -> (content, media type) of every servable file, read once."""
    return {
        path.name: (path.read_bytes(), _TYPES[path.suffix])
        for path in sorted(STATIC_DIR.iterdir())
        if path.is_file() and path.suffix in _TYPES
    }


def _serve(name: str) -> Response:
    found = static_files().get(name)
    if found is None:
        raise ServiceError("not_found", "There is no such file.", 404)
    content, media_type = found
    return Response(content, media_type=media_type, headers=SECURITY_HEADERS)


@web_router.api_route("/", methods=["GET", "HEAD"])
async def get_page() -> Response:
    return _serve("index.html")


@web_router.api_route(ASSET_PREFIX + "{name}", methods=["GET", "HEAD"])
async def get_asset(name: str) -> Response:
    return _serve(name)
