"""A mongoeco wire server on a SQLite engine, run in its own thread and event loop.

Built on mongoeco's public API only (`mongoeco.wire.AsyncMongoEcoProxyServer`,
`mongoeco.engines.SQLiteEngine`). The server never borrows the test's event loop, so a test can
stop it (`close()`, e.g. via `asyncio.to_thread`) while its PyMongo client is still open and see
what the store does when the server is gone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import tempfile
import threading
from contextlib import suppress
from pathlib import Path

from mongoeco.engines import SQLiteEngine
from mongoeco.wire import AsyncMongoEcoProxyServer

TIMEOUT_S = 10.0


class WireServerThread:
    """One wire server, loop and engine (SQLite under a temporary folder in `directory`).

    `start()` returns the server's mongodb:// URI; `close()` stops it, waits for its thread and
    re-raises anything the server thread failed with. `close()` may be called more than once.
    """

    def __init__(
        self, directory: Path, *, dialect: str = "7.0", profile: str = "auto-installed"
    ) -> None:
        self._directory = directory
        self._dialect = dialect
        self._profile = profile
        self._ready: concurrent.futures.Future[str] = concurrent.futures.Future()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._stop_requested = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wire-server-thread")

    def start(self) -> str:
        """Starts the server thread; returns the URI once the server listens."""
        self._thread.start()
        try:
            return self._ready.result(timeout=TIMEOUT_S)
        except BaseException as error:
            try:
                self.close()
            except BaseException as cleanup_error:
                error.add_note(f"wire server cleanup failed: {cleanup_error}")
            raise

    def close(self) -> None:
        """Stops the server and joins its thread (a no-op once stopped)."""
        # Set before looking at the loop: a server thread that has not yet created its stop
        # event will see this flag and not wait at all.
        self._stop_requested.set()
        if self._loop is not None and self._stop is not None:
            with suppress(RuntimeError):  # the loop has already closed
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread.ident is not None:
            self._thread.join(timeout=TIMEOUT_S)
        if self._thread.is_alive():
            raise TimeoutError(f"wire server did not stop within {TIMEOUT_S:g} seconds")
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:
            self._error = error
            if not self._ready.done():
                self._ready.set_exception(error)

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        with tempfile.TemporaryDirectory(prefix="wire-server-", dir=self._directory) as folder:
            engine = SQLiteEngine(str(Path(folder) / "database.sqlite"), executor_workers=1)
            server = AsyncMongoEcoProxyServer(
                engine=engine, mongodb_dialect=self._dialect, pymongo_profile=self._profile
            )
            try:
                address = await asyncio.wait_for(server.start(), timeout=TIMEOUT_S)
                self._ready.set_result(address.uri)
                if not self._stop_requested.is_set():
                    await self._stop.wait()
            finally:
                await server.close()
