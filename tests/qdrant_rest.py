"""A stand-in Qdrant server for tests: the REST routes Warden's server adapter calls, served on
loopback by uvicorn in a thread, backed by qdrant-client's own local mode (`QdrantLocal`).

No Qdrant server binary can be installed here. This lets several processes (`warden serve
--workers N`) share one vector index over real HTTP through `AsyncQdrantClient(url=...)`. It
speaks only what the adapter needs and checks bodies with qdrant-client's REST models."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from qdrant_client.http import models as m
from qdrant_client.local.qdrant_local import QdrantLocal


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def build_app(local: QdrantLocal) -> FastAPI:
    app = FastAPI()
    lock = threading.Lock()

    def answer(call: Callable[[], Any]) -> JSONResponse:
        with lock, warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # local mode: payload indexes unused
            try:
                result = call()
            except ValueError as exc:
                return JSONResponse({"status": {"error": str(exc)}}, status_code=404)
        return JSONResponse({"result": _jsonable(result), "status": "ok", "time": 0.0})

    async def body[T: BaseModel](request: Request, model: type[T]) -> T:
        return model.model_validate(await request.json())

    @app.get("/")
    async def version() -> dict[str, str]:
        return {"title": "qdrant - vector search engine", "version": "1.20.0"}

    @app.get("/collections")
    async def collections() -> JSONResponse:
        return answer(local.get_collections)

    @app.get("/aliases")
    async def aliases() -> JSONResponse:
        return answer(local.get_aliases)

    @app.post("/collections/aliases")
    async def change_aliases(request: Request) -> JSONResponse:
        change = await body(request, m.ChangeAliasesOperation)
        return answer(lambda: local.update_collection_aliases(change.actions))

    @app.get("/collections/{name}/exists")
    async def exists(name: str) -> JSONResponse:
        return answer(lambda: m.CollectionExistence(exists=local.collection_exists(name)))

    @app.get("/collections/{name}")
    async def info(name: str) -> JSONResponse:
        return answer(lambda: local.get_collection(name))

    @app.put("/collections/{name}")
    async def create(name: str, request: Request) -> JSONResponse:
        c = await body(request, m.CreateCollection)
        return answer(
            lambda: local.create_collection(
                name,
                vectors_config=c.vectors,
                sparse_vectors_config=c.sparse_vectors,
                metadata=c.metadata,
            )
        )

    @app.patch("/collections/{name}")
    async def update(name: str, request: Request) -> JSONResponse:
        u = await body(request, m.UpdateCollection)
        return answer(lambda: local.update_collection(name, metadata=u.metadata))

    @app.delete("/collections/{name}")
    async def drop(name: str) -> JSONResponse:
        return answer(lambda: local.delete_collection(name))

    @app.put("/collections/{name}/index")
    async def index(name: str, request: Request) -> JSONResponse:
        i = await body(request, m.CreateFieldIndex)
        return answer(lambda: local.create_payload_index(name, i.field_name, i.field_schema))

    @app.put("/collections/{name}/points")
    async def upsert(name: str, request: Request) -> JSONResponse:
        points = await body(request, m.PointsList)
        return answer(lambda: local.upsert(name, points=points.points))

    @app.post("/collections/{name}/points/query/batch")
    async def query_batch(name: str, request: Request) -> JSONResponse:
        batch = await body(request, m.QueryRequestBatch)
        return answer(lambda: local.query_batch_points(name, batch.searches))

    @app.post("/collections/{name}/points/scroll")
    async def scroll(name: str, request: Request) -> JSONResponse:
        s = await body(request, m.ScrollRequest)

        def page() -> m.ScrollResult:
            points, offset = local.scroll(
                name,
                scroll_filter=s.filter,
                limit=s.limit or 10,
                offset=s.offset,
                with_payload=s.with_payload if s.with_payload is not None else True,
                with_vectors=s.with_vector or False,
            )
            return m.ScrollResult(points=points, next_page_offset=offset)

        return answer(page)

    @app.post("/collections/{name}/points/count")
    async def count(name: str, request: Request) -> JSONResponse:
        c = await body(request, m.CountRequest)
        return answer(lambda: local.count(name, count_filter=c.filter, exact=bool(c.exact)))

    @app.post("/collections/{name}/points/delete")
    async def delete(name: str, request: Request) -> JSONResponse:
        selector = await body(request, m.FilterSelector)
        return answer(lambda: local.delete(name, points_selector=selector))

    return app


@contextmanager
def qdrant_rest_server(port: int) -> Iterator[str]:
    """Serves on 127.0.0.1:`port` until the block ends; yields the URL."""
    config = uvicorn.Config(
        build_app(QdrantLocal(location=":memory:")),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the Qdrant stand-in did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
