"""Liveness (`/healthz`: the process answers) and readiness (`/readyz`: each dependency)."""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from service.container import Probe
from service.http.deps import ContainerDep

router = APIRouter(tags=["health"])
log = logging.getLogger("warden.health")
PROBE_TIMEOUT_S = 2.0


class Liveness(BaseModel):
    status: Literal["ok"] = "ok"


class CheckResult(BaseModel):
    status: Literal["up", "down"]
    required: bool
    error: str | None = None  # a short code or the failure's type name, never its message


class Readiness(BaseModel):
    status: Literal["ready", "degraded"]  # degraded + HTTP 503 when a required one is down
    checks: dict[str, CheckResult]


@router.get("/healthz")
async def get_liveness() -> Liveness:
    return Liveness()


async def _run(name: str, probe: Probe) -> CheckResult:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT_S):
            await probe.check()
    except Exception as exc:  # noqa: BLE001 - any failure means "down"
        reason = "timeout" if isinstance(exc, TimeoutError) else type(exc).__name__
        reason = getattr(exc, "reason", None) or reason  # ModelUnavailable: "breaker_open", ...
        log.warning("readiness: %s is down (%s)", name, reason)
        return CheckResult(status="down", required=probe.required, error=reason)
    return CheckResult(status="up", required=probe.required)


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "a required dependency is down"}},
)
async def get_readiness(container: ContainerDep) -> JSONResponse:
    names = list(container.probes)
    results = await asyncio.gather(*(_run(n, container.probes[n]) for n in names))
    checks = dict(zip(names, results, strict=True))
    required_down = any(c.status == "down" and c.required for c in checks.values())
    any_down = any(c.status == "down" for c in checks.values())
    body = Readiness(status="degraded" if any_down else "ready", checks=checks)
    return JSONResponse(body.model_dump(), status_code=503 if required_down else 200)
