"""`warden serve`: one process, or N uvicorn workers (`--workers N`) when servers hold the data.
It builds the app, so it lives beside the composition root, not among the CLI edges."""

from __future__ import annotations

import asyncio
import sys

from service import bootstrap
from service.cli.serve import APP_FACTORY, workers_refusal
from service.process_lock import data_dir_lock
from service.settings import Settings

GRACEFUL_SHUTDOWN_S = 15
WORKER_HEALTHCHECK_S = 120


def serve(settings: Settings, host: str, port: int, workers: int = 1) -> int:
    """Exit 2 when the settings cannot serve `workers` processes, 3 when startup failed."""
    import uvicorn

    from service.app import create_app
    from service.http.header_limit import HeaderCappedProtocol

    refusal = workers_refusal(settings, workers)
    if refusal:
        print(f"warden: {refusal}", file=sys.stderr)
        return 2
    url = f"http://{host}:{port}"
    with data_dir_lock(settings, "serve", url):
        asyncio.run(bootstrap.check_index(settings))  # a model mismatch stops here, clearly
        if workers > 1:  # each worker builds its own app from the environment
            bootstrap.token_service(settings)  # the JWT secret exists before workers race
            uvicorn.run(
                APP_FACTORY,
                factory=True,
                host=host,
                port=port,
                workers=workers,
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
                # loading the models holds the GIL for seconds on a busy host: uvicorn's 5 s
                # default kills such a worker as hung, again and again
                timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
            )
            return 0
        config = uvicorn.Config(
            create_app(settings=settings),
            host=host,
            port=port,
            workers=1,
            http=HeaderCappedProtocol,  # 431 `headers_too_large` past 32 KiB of headers
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        )
        server = uvicorn.Server(config)
        server.run()
    return 0 if server.started else 3
