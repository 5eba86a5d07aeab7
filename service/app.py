"""The FastAPI application. `create_app()` builds nothing at import time: the lifespan builds
the container (unless one is given) and closes it on shutdown, after uvicorn has stopped
taking requests and let the ones in flight finish."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from service.bootstrap import build_container
from service.container import Container
from service.documents.sweeper import start_sweeper
from service.errors import CatchAllMiddleware, install_error_handlers
from service.http import auth, chat, documents, health, me, metrics, stream
from service.http.body_limit import BodyLimitMiddleware, LimitFor
from service.http.docs import install_docs
from service.http.fast_reject import FastRejectMiddleware
from service.http.instance import InstanceHeaderMiddleware
from service.http.web import web_router
from service.settings import Settings

UPLOAD_PATH = "/v1/documents"
OUTBOX_REPLAY_INTERVAL_S = 30.0


def _body_limits(settings: Settings) -> LimitFor:
    def limit_for(method: str, path: str) -> int:
        if method == "POST" and path.rstrip("/") == UPLOAD_PATH:
            return sys.maxsize  # the upload route caps its own body (413 upload_too_large)
        return settings.max_body_bytes

    return limit_for


async def _replay_periodically(container: Container) -> None:
    """Stores history turns that waited in the outbox while the store was down."""
    while True:
        await asyncio.sleep(OUTBOX_REPLAY_INTERVAL_S)
        await container.replay_outbox()
        await container.access.refresh()  # revocations made by other processes


def create_app(container: Container | None = None, settings: Settings | None = None) -> FastAPI:
    """A given container is used as is and left open (its owner closes it); without one, the
    lifespan builds it from `settings` (default: `Settings()` from the environment)."""
    settings = settings or (container.settings if container else Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        built = None
        if app.state.container is None:
            built = app.state.container = await build_container(settings)
        container: Container = app.state.container
        replayer = asyncio.create_task(_replay_periodically(container))
        sweep_every_s = float(settings.document_sweep_interval_s)
        sweeper = start_sweeper(container.documents.sweep, sweep_every_s)  # now, then every
        try:
            yield
        finally:
            await sweeper.stop()
            replayer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await replayer
            await container.chat.finish_running(settings.shutdown_flush_timeout_s)
            if built is not None:
                await built.close()

    app = FastAPI(
        title="Warden",
        version="0.1.0",
        summary="Guarded retrieval-augmented chat",
        lifespan=lifespan,
        docs_url=None,  # install_docs: Swagger UI from local files
        redoc_url=None,
        redirect_slashes=False,  # `/v1/documents/` is a JSON 404, not a redirect
    )
    app.state.container = container
    install_error_handlers(app)
    app.add_middleware(FastRejectMiddleware)  # innermost: the body it reads is capped
    app.add_middleware(BodyLimitMiddleware, limit_for=_body_limits(settings))
    app.add_middleware(CatchAllMiddleware)
    app.add_middleware(InstanceHeaderMiddleware)  # outermost: every answer names its worker
    for module in (health, auth, chat, stream, documents, me):
        app.include_router(module.router)
    app.include_router(metrics.router_for(settings.metrics_token))
    install_docs(app)
    app.include_router(web_router)  # the page at /
    return app
