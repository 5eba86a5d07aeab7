"""Load generators for bench_http.py, each bounded in time: `wrk` (1 thread) when installed,
else an asyncio httpx client with N concurrent connections, also bounded in requests.
Both run in their own process and send the same POST (JSON body, a bearer token taken
round-robin from a list). A body holding COUNTER gets a new number there in every request, so
that every request carries a text the server has not seen.

    python bench/_http_load.py URL TOKENS_FILE BODY_FILE --connections N --duration S
        [--max-requests M]     (the httpx client; prints one JSON result line)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
COUNTER = "__N__"


@dataclass(frozen=True)
class LoadResult:
    requests: int
    seconds: float
    errors: int  # non-2xx answers and socket errors
    p50_ms: float
    p99_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def wrk_path() -> str | None:
    return shutil.which("wrk")


def _lua_string(text: str) -> str:
    if "]==]" in text:
        raise ValueError("text cannot be quoted as a Lua long string")
    return f"[==[{text}]==]"


def wrk_script(tokens: list[str], body: str) -> str:
    listed = ", ".join(_lua_string(t) for t in tokens)
    return f"""
local tokens = {{{listed}}}
local i = 0
local n = 0
local body = {_lua_string(body)}
local counted = string.find(body, "{COUNTER}", 1, true) ~= nil
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = i % #tokens + 1
  wrk.headers["Authorization"] = "Bearer " .. tokens[i]
  if counted then
    n = n + 1
    return wrk.format(nil, nil, nil, (string.gsub(body, "{COUNTER}", tostring(n))))
  end
  return wrk.format()
end
"""


def _ms(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", value).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS_MS[unit]


def parse_wrk(output: str) -> LoadResult:
    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s)", output)
    if done is None:
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    seconds = _ms(done.group(2) + done.group(3)) / 1000
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    errors = int(non_2xx.group(1)) if non_2xx else 0
    errors += sum(int(n) for n in sockets.groups()) if sockets else 0
    p50 = re.search(r"^\s+50%\s+([\d.]+\w+)", output, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+([\d.]+\w+)", output, re.MULTILINE)
    return LoadResult(
        requests=int(done.group(1)),
        seconds=seconds,
        errors=errors,
        p50_ms=_ms(p50.group(1)) if p50 else float("nan"),
        p99_ms=_ms(p99.group(1)) if p99 else float("nan"),
    )


def run_wrk(url: str, script: Path, connections: int, duration_s: float) -> LoadResult:
    command = ["wrk", "-t1", f"-c{connections}", f"-d{duration_s:g}s", "--latency", "-s"]
    done = subprocess.run(
        [*command, str(script), url], capture_output=True, text=True, timeout=duration_s + 60
    )
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed: {done.stderr.strip()}")
    return parse_wrk(done.stdout)


def run_httpx(
    url: str, tokens: list[str], body: str, connections: int, duration_s: float, max_requests: int
) -> LoadResult:
    """The httpx client in a child process (so it does not share the driver's interpreter)."""
    with tempfile.TemporaryDirectory() as tmp:
        tokens_file, body_file = Path(tmp) / "tokens.json", Path(tmp) / "body.json"
        tokens_file.write_text(json.dumps(tokens))
        body_file.write_text(body)
        command = [sys.executable, __file__, url, str(tokens_file), str(body_file)]
        options = ["--connections", str(connections), "--duration", str(duration_s)]
        options += ["--max-requests", str(max_requests)]
        done = subprocess.run(
            [*command, *options], capture_output=True, text=True, timeout=duration_s + 120
        )
    if done.returncode != 0:
        raise RuntimeError(f"httpx load client failed: {done.stderr.strip()[-2000:]}")
    return LoadResult(**json.loads(done.stdout.strip().splitlines()[-1]))


async def _load(
    url: str, tokens: list[str], body: bytes, connections: int, duration_s: float, cap: int
) -> LoadResult:
    import httpx

    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    latencies: list[float] = []
    counts = {"sent": 0, "errors": 0}
    async with httpx.AsyncClient(limits=limits, timeout=30.0) as client:
        deadline = time.perf_counter() + duration_s

        async def worker(k: int) -> None:
            while time.perf_counter() < deadline and counts["sent"] < cap:
                token = tokens[(counts["sent"] + k) % len(tokens)]
                counts["sent"] += 1
                sent = body.replace(COUNTER.encode(), str(counts["sent"]).encode())
                headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
                started = time.perf_counter()
                try:
                    response = await client.post(url, content=sent, headers=headers)
                except httpx.HTTPError:
                    counts["errors"] += 1
                    continue
                latencies.append((time.perf_counter() - started) * 1000)
                counts["errors"] += response.status_code != 200

        started = time.perf_counter()
        await asyncio.gather(*(worker(k) for k in range(connections)))
        seconds = time.perf_counter() - started
    ordered = sorted(latencies) or [float("nan")]
    return LoadResult(
        requests=len(latencies),
        seconds=seconds,
        errors=counts["errors"],
        p50_ms=statistics.median(ordered),
        p99_ms=ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="asyncio httpx load client (one JSON line out)")
    parser.add_argument("url")
    parser.add_argument("tokens_file", type=Path)
    parser.add_argument("body_file", type=Path)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--max-requests", type=int, default=50_000)
    args = parser.parse_args()
    tokens = json.loads(args.tokens_file.read_text())
    body = args.body_file.read_bytes()
    result = asyncio.run(
        _load(args.url, tokens, body, args.connections, args.duration, args.max_requests)
    )
    print(json.dumps(asdict(result)))


if __name__ == "__main__":
    main()
