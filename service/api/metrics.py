"""GET /metrics: Prometheus text for a scraper holding the static WARDEN_METRICS_TOKEN.

Why a separate static token: SPEC wants a bearer token on every route but health, and a
Prometheus scrape config carries a fixed bearer token (`authorization: credentials: ...`),
not a user's short-lived JWT. A user's token is not accepted here: users have no business
reading service-wide counts. With no WARDEN_METRICS_TOKEN set, /metrics is off (403
`metrics_disabled`): nothing is exposed by default.
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service.deps import ContainerDep
from service.errors import ServiceError, responses
from service.metrics import MetricsDep

router = APIRouter(tags=["metrics"])
scrape_token = HTTPBearer(auto_error=False, scheme_name="MetricsToken")


def metrics_scraper(
    container: ContainerDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(scrape_token)],
) -> None:
    """Admits a request bearing the configured metrics token (compared in constant time)."""
    secret = container.settings.metrics_token
    expected = secret.get_secret_value().strip() if secret else ""
    if not expected:
        raise ServiceError(
            "metrics_disabled", "Metrics are off; set WARDEN_METRICS_TOKEN to scrape them.", 403
        )
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
        **responses(401, 403),
    },
)
async def get_metrics_text(request: Request, metrics: MetricsDep) -> Response:
    body, content_type = metrics.render(request.headers.get("accept", ""))
    return Response(body, headers={"Content-Type": content_type})
