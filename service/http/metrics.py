"""GET /metrics: Prometheus text (counts and timings only, never message text).

Like the health routes it is open on the embedded defaults, so `GET /metrics` works with no
configuration (SPEC section 4). Set WARDEN_METRICS_TOKEN to require that static bearer token,
as a Prometheus scrape config sends it (`authorization: credentials: ...`); a user's JWT is
not accepted then: users have no business reading service-wide counts. The OpenAPI document
says which: a security requirement (and a 401) only when the token is set.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import SecretStr

from service.errors import ServiceError, responses
from service.http.deps import ChatDep

scrape_token = HTTPBearer(auto_error=False, scheme_name="MetricsToken")
_PROMETHEUS_TEXT: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {}}, "description": "Prometheus text"}
}


def scraper_check(secret: SecretStr | None) -> Any:
    """The dependency that admits a scrape: only that token (constant-time compare)."""
    expected = secret.get_secret_value().strip().encode() if secret else b""

    async def metrics_scraper(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(scrape_token)],
    ) -> None:
        given = credentials.credentials.encode() if credentials else b""
        if not hmac.compare_digest(given, expected):
            raise ServiceError(
                "not_authenticated",
                "A valid metrics token is required.",
                401,
                headers={"WWW-Authenticate": "Bearer"},
            )

    return metrics_scraper


async def get_metrics_text(request: Request, chat: ChatDep) -> Response:
    body, content_type = chat.metrics.render(request.headers.get("accept", ""))
    return Response(body, headers={"Content-Type": content_type})


def router_for(metrics_token: SecretStr | None) -> APIRouter:
    """Open without WARDEN_METRICS_TOKEN; with it, guarded by that token."""
    router = APIRouter(tags=["metrics"])
    guarded = metrics_token is not None and bool(metrics_token.get_secret_value().strip())
    router.add_api_route(
        "/metrics",
        get_metrics_text,
        methods=["GET"],
        dependencies=[Depends(scraper_check(metrics_token))] if guarded else [],
        response_class=Response,
        responses={**_PROMETHEUS_TEXT, **(responses(401) if guarded else {})},
    )
    return router
