"""The reject path through the whole HTTP stack, as a throughput ratio to a bare JWT endpoint.

    python bench/bench_http.py [--connections 32] [--duration 3] [--rounds 3] [--fakes]
                               [--client auto|wrk|httpx] [--max-requests 50000]

One uvicorn server (1 worker, 127.0.0.1, configured as `warden serve`: uvloop/httptools when
installed, access log on, INFO logging to a file) runs in a child process and serves two apps
behind a path switch:
- `POST /v1/chat`: the Warden app from `create_app(container=build_container(settings))` on a
  temporary data dir, with a valid JWT and an abusive message (answered on the reject path);
- `POST /bench/bare`: a bare FastAPI app that only verifies the same HS256 JWT (same secret,
  PyJWT) and returns a small JSON.
The load generator (wrk, 1 thread, when installed; else an asyncio httpx client) runs in its
own process with N keep-alive connections, each run bounded in time (httpx: and requests).
With `--distinct`, every chat request carries a message with a new number in it, so none is
answered from the verdict cache (pipelines/safety/verdict_cache.py): the cost of classifying.
The two targets alternate (ABBA...) for `--rounds` rounds after a warm-up; the ratio is
median(chat req/s) / median(bare req/s). Target >= 0.7. Also printed: the server's CPU time
per request, from /proc (less sensitive to the load generator sharing the 2 cores).
Adapters: real (ONNX, Qdrant Edge, mongoeco, Presidio, toxicity scorer) unless --fakes
(fake embedder/index/detector, real mongoeco); the reject path touches none of them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import jwt
from fastapi import FastAPI, Header, HTTPException

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import print_table  # noqa: E402
from bench._http_load import (  # noqa: E402
    COUNTER,
    LoadResult,
    run_httpx,
    run_wrk,
    wrk_path,
    wrk_script,
)

CHAT_PATH, BARE_PATH = "/v1/chat", "/bench/bare"
ABUSIVE = "You are a useless idiot."
SECRET_ENV = "BENCH_JWT_SECRET"
USERS = 20


# ------------------------------------------------------------------ server (child process)


def bare_app(secret: str) -> Any:
    app = FastAPI()

    @app.post(BARE_PATH)
    async def bare(authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401)
        try:
            claims = jwt.decode(
                authorization[7:],
                secret,
                algorithms=["HS256"],
                issuer="warden",
                options={"require": ["sub", "exp"]},
            )
        except jwt.InvalidTokenError:
            raise HTTPException(401) from None
        return {"ok": True, "sub": claims["sub"]}

    return app


class PathSwitch:
    """`/bench/...` goes to the bare app; everything else (and the lifespan) to Warden."""

    def __init__(self, bare: Any) -> None:
        self.bare = bare
        self.warden: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/bench/"):
            await self.bare(scope, receive, send)
        else:
            await self.warden(scope, receive, send)


async def _serve(config: Any, switch: PathSwitch, data_dir: Path, fakes: bool) -> None:
    import uvicorn
    from pydantic import SecretStr

    from service.app import create_app
    from service.bootstrap import build_container
    from service.settings import Settings

    settings = Settings(
        data_dir=data_dir,
        jwt_secret=SecretStr(os.environ[SECRET_ENV]),
        rate_limit_per_minute=100_000,  # the limiter runs, but never refuses this load
    )
    overrides: dict[str, Any] = {}
    if fakes:
        from tests.fakes.detector import FakePiiDetector
        from tests.fakes.embedder import FakeEmbedder
        from tests.fakes.vector_index import FakeVectorIndex

        overrides = dict(
            embedder=FakeEmbedder(), index=FakeVectorIndex(), detector=FakePiiDetector()
        )
    container = await build_container(settings, **overrides)
    try:
        switch.warden = create_app(container=container)
        await uvicorn.Server(config).serve()
    finally:
        await container.close()


def serve(port: int, data_dir: Path, fakes: bool) -> None:
    import uvicorn

    logging.basicConfig(  # as `warden serve`
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    switch = PathSwitch(bare_app(os.environ[SECRET_ENV]))
    config = uvicorn.Config(switch, host="127.0.0.1", port=port, workers=1)
    asyncio.run(_serve(config, switch, data_dir, fakes), loop_factory=config.get_loop_factory())


# ------------------------------------------------------------------ driver


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc (clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def issue_tokens(secret: str) -> list[str]:
    from pipelines.ports import UserRecord
    from service.auth.tokens import TokenService

    tokens = TokenService(secret, ttl=timedelta(hours=2))
    now = datetime.now(UTC)
    return [
        tokens.issue(UserRecord(f"u-bench-{n}", f"u{n}@example.com", f"User {n}", "", now))
        for n in range(USERS)
    ]


def wait_ready(base: str, server: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"server exited with {server.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server did not become healthy")


def check_answers(base: str, token: str, body: str) -> str:
    """One request to each target: both 200, and the chat answer is a zero-cost reject."""
    import httpx

    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bare = httpx.post(base + BARE_PATH, content=body, headers=headers, timeout=60)
    chat = httpx.post(base + CHAT_PATH, content=body, headers=headers, timeout=60)
    if bare.status_code != 200 or chat.status_code != 200:
        raise RuntimeError(f"bare {bare.status_code}, chat {chat.status_code}: {chat.text[:200]}")
    answer = chat.json()
    if answer["route"] != "reject" or any(answer["calls"].values()):
        raise RuntimeError(f"not a zero-cost reject: {answer['route']} {answer['calls']}")
    return f"chat answer: route={answer['route']} calls={json.dumps(answer['calls'])}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each target")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds per target")
    parser.add_argument("--max-requests", type=int, default=50_000, help="httpx client cap")
    parser.add_argument("--client", choices=["auto", "wrk", "httpx"], default="auto")
    parser.add_argument("--fakes", action="store_true", help="fake embedder/index/detector")
    parser.add_argument("--message", default=ABUSIVE)
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="a new number in every message, so no verdict is cached (every request classified)",
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.data_dir, args.fakes)
        return

    use_wrk = args.client == "wrk" or (args.client == "auto" and wrk_path() is not None)
    secret = secrets.token_urlsafe(32)
    tokens = issue_tokens(secret)
    message = f"{args.message} {COUNTER}" if args.distinct else args.message
    body = json.dumps({"message": message})
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        script.write_text(wrk_script(tokens, body))
        log_path = Path(tmp) / "server.log"
        command = [sys.executable, __file__, "--serve", str(port), "--data-dir", tmp + "/data"]
        env = {**os.environ, SECRET_ENV: secret}
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                [*command, *(["--fakes"] if args.fakes else [])], stdout=log, stderr=log, env=env
            )
            try:
                started = time.monotonic()
                wait_ready(base, server)
                print(
                    f"server ready in {time.monotonic() - started:.1f} s; "
                    + check_answers(base, tokens[0], body.replace(COUNTER, "0"))
                )

                def run(path: str, seconds: float) -> tuple[LoadResult, float]:
                    cpu_before = cpu_seconds(server.pid)
                    if use_wrk:
                        result = run_wrk(base + path, script, args.connections, seconds)
                    else:
                        result = run_httpx(
                            base + path, tokens, body, args.connections, seconds, args.max_requests
                        )
                    cpu = cpu_seconds(server.pid) - cpu_before
                    return result, cpu * 1e6 / max(result.requests, 1)

                for path in (BARE_PATH, CHAT_PATH):
                    run(path, args.warmup)
                runs = measure(run, args.rounds, args.duration)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
        log_lines = len(log_path.read_bytes().splitlines())
    client = "wrk -t1" if use_wrk else "httpx (asyncio, own process)"
    report(runs, client, args, log_lines)


Run = tuple[int, str, LoadResult, float]  # round, target, result, server CPU us/request


def measure(run: Any, rounds: int, seconds: float) -> list[Run]:
    runs: list[Run] = []
    for n in range(1, rounds + 1):
        order = [("bare", BARE_PATH), ("chat", CHAT_PATH)]
        for name, path in order if n % 2 else order[::-1]:  # ABBA: neither always goes first
            result, cpu_us = run(path, seconds)
            runs.append((n, name, result, cpu_us))
    return runs


def report(runs: list[Run], client: str, args: argparse.Namespace, log_lines: int) -> None:
    adapters = "fake embedder/index/detector, real mongoeco" if args.fakes else "real adapters"
    title = (
        f"HTTP reject path vs bare JWT endpoint ({client}, {args.connections} connections, "
        f"{args.duration:g} s per run, uvicorn 1 worker, {adapters}, "
        + ("a new message every request: no cached verdict)" if args.distinct else "one message)")
    )
    rows = [
        [n, name, f"{r.rps:.0f}", f"{r.p50_ms:.2f}", f"{r.p99_ms:.2f}", r.errors, f"{cpu:.0f}"]
        for n, name, r, cpu in runs
    ]
    headers = ["round", "target", "req/s", "p50 ms", "p99 ms", "errors", "server CPU us/req"]
    print_table(headers, rows, title)

    def median_of(name: str, pick: Any) -> float:
        return statistics.median(pick(r, cpu) for _, n, r, cpu in runs if n == name)

    rps = {t: median_of(t, lambda r, _: r.rps) for t in ("bare", "chat")}
    cpu = {t: median_of(t, lambda _, c: c) for t in ("bare", "chat")}
    per_round = [
        chat.rps / bare.rps
        for (_, _, bare, _), (_, _, chat, _) in zip(
            [x for x in runs if x[1] == "bare"], [x for x in runs if x[1] == "chat"], strict=True
        )
    ]
    print_table(
        ["target", "median req/s", "median server CPU us/req"],
        [[t, f"{rps[t]:.0f}", f"{cpu[t]:.0f}"] for t in ("bare", "chat")],
        "medians",
    )
    print(f"ratio chat/bare, median req/s: {rps['chat'] / rps['bare']:.2f}  (target >= 0.7)")
    print(f"ratio chat/bare per round: {', '.join(f'{x:.2f}' for x in per_round)}")
    print(f"ratio bare/chat server CPU per request: {cpu['bare'] / cpu['chat']:.2f}")
    print(f"server log lines written during the bench: {log_lines}")
    if not client.startswith("wrk"):
        print(
            "note: the httpx client (Python, sharing 2 cores) saturates long before the server, "
            "so the req/s ratio is squeezed towards 1; install wrk or read the CPU ratio"
        )


if __name__ == "__main__":
    main()
