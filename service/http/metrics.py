"""GET /metrics: Prometheus text (counts and timings only, never message text).

Like the health routes it is open on the embedded defaults, so `GET /metrics` works with no
configuration (SPEC section 4). Set WARDEN_METRICS_TOKEN to require that static bearer token,
as a Prometheus scrape config sends it (`authorization: credentials: ...`); a user's JWT is
not accepted then: users have no business reading service-wide counts.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service.errors import ServiceError, responses
from service.http.deps import ChatDep, ContainerDep

router = APIRouter(tags=["metrics"])
scrape_token = HTTPBearer(auto_error=False, scheme_name="MetricsToken")


async def metrics_scraper(
    container: ContainerDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(scrape_token)],
) -> None:
    """Open without WARDEN_METRICS_TOKEN; with it, only that token (constant-time compare)."""
    secret = container.settings.metrics_token
    expected = secret.get_secret_value().strip() if secret else ""
    if not expected:
        return
    given = credentials.credentials if credentials else ""
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise ServiceError(
            "not_authenticated",
            "A valid metrics token is required.",
            401,
            headers={"WWW-Authenticate": "Bearer"},
        )


@router.get(
    "/metrics",
    dependencies=[Depends(metrics_scraper)],
    response_class=Response,
    responses={
        200: {"content": {"text/plain": {}}, "description": "Prometheus text"},
        **responses(401),
    },
)
async def get_metrics_text(request: Request, chat: ChatDep) -> Response:
    body, content_type = chat.metrics.render(request.headers.get("accept", ""))
    return Response(body, headers={"Content-Type": content_type})
