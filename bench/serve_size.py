"""`warden serve` at size: peak RSS of the serving process, and questions per second at 32
concurrent clients with one worker (issue 14, acceptance 3).

    python bench/serve_size.py [--data DIR] [--corpus DIR] [--documents 590] [--grow-to 100000]
        [--connections 32] [--duration 30]

1. A real `warden ingest` of `--documents` synthetic text documents (bench/_scale_corpus.py:
   sample-KB sentences recombined, ~17 chunks each) into the data folder (`--data` reuses a
   folder already ingested: the ingest then skips every document). Its time and chunks/s.
2. `--grow-to N`: the ingested points are copied (dense vector plus Gaussian noise of norm
   0.25, same sparse vector and payload, own doc/parent ids) until the index holds N points,
   then the HNSW index is built (`optimize`). Only the ingested part was embedded for real.
3. `warden serve` (one worker, embedded stores, no chat model, rate limit off) on the folder:
   the ten questions of bench_nodes.py once each (RSS after them), then the same question
   path under load: `--connections` concurrent clients (bench/_http_load.py, httpx, in its own
   process) for `--duration` s, questions taken in turn from the ten. Prints requests/s,
   p50/p99, the server's CPU ms per request, and its VmRSS / VmHWM (peak) from /proc.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import qdrant_edge as qe

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._http_load import run_httpx  # noqa: E402
from bench._scale_corpus import write_corpus  # noqa: E402
from bench.bench_http import cpu_seconds, free_port, issue_tokens, wait_ready  # noqa: E402
from bench.bench_nodes import QUESTIONS  # noqa: E402

SECRET = "bench-serve-size-secret-0123456789abcdef"
WARDEN = Path(sys.executable).parent / "warden"


def ingest(data: Path, corpus: Path, documents: int) -> None:
    write_corpus(corpus, documents)
    env = {**os.environ, "WARDEN_DATA_DIR": str(data)}
    started = time.perf_counter()
    done = subprocess.run(
        [str(WARDEN), "ingest", str(corpus)], env=env, capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - started
    chunks = int(done.stderr.strip().splitlines()[-1].split()[0])
    print(f"warden ingest: {done.stdout.strip()}; {chunks:,} chunks in {seconds:.0f} s", end="")
    print(f" ({chunks / seconds:.1f} chunks/s, HNSW built at its end)" if chunks else "")


def grow(folder: Path, target: int) -> None:
    shard = qe.EdgeShard.load(str(folder))
    page, _ = shard.scroll(qe.ScrollRequest(limit=10**7, with_payload=True, with_vector=True))
    real = len(page)
    rng = np.random.default_rng(7)
    started, made = time.perf_counter(), 0
    while real + made < target:
        batch = []
        for record in page[: min(1024, target - real - made)]:
            vector = dict(record.vector)  # type: ignore[arg-type]
            dense = np.asarray(vector[""], dtype=np.float32)
            dense += rng.standard_normal(dense.shape).astype(np.float32) * (0.25 / 19.6)
            vector[""] = (dense / np.linalg.norm(dense)).tolist()
            payload = dict(record.payload or {})
            payload["doc_id"] = f"{payload['doc_id']}~{made}"
            payload["parent_id"] = f"{payload['parent_id']}~{made}"
            batch.append(qe.Point(uuid.uuid4(), vector, payload))  # type: ignore[arg-type]
            made += 1
        shard.update(qe.UpdateOperation.upsert_points(batch))
        rng.shuffle(page)  # type: ignore[arg-type]
    upsert_s = time.perf_counter() - started
    started = time.perf_counter()
    shard.optimize()
    optimize_s = time.perf_counter() - started
    info = shard.info()
    shard.close()
    print(
        f"grown from {real:,} ingested points to {info.points_count:,} with copies "
        f"({upsert_s:.0f} s), HNSW built in {optimize_s:.0f} s ({info.segments_count} segments)"
    )


def status_kib(pid: int) -> dict[str, int]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {
        k: int(v.split()[0]) for k, v in (x.split(":", 1) for x in lines) if k in ("VmRSS", "VmHWM")
    }


def serve_and_load(data: Path, connections: int, duration_s: float) -> None:
    import httpx

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "WARDEN_DATA_DIR": str(data),
        "WARDEN_JWT_SECRET": SECRET,
        "WARDEN_RATE_LIMIT_PER_MINUTE": "0",
    }
    server = subprocess.Popen(
        [str(WARDEN), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_ready(base, server, timeout_s=300)
        print(f"serve started: {status_kib(server.pid)}")
        tokens = issue_tokens(SECRET)
        for n, question in enumerate(QUESTIONS):
            answer = httpx.post(
                f"{base}/v1/chat",
                json={"message": question},
                headers={"Authorization": f"Bearer {tokens[n % len(tokens)]}"},
                timeout=60,
            )
            answer.raise_for_status()
        print(f"after the ten questions: {status_kib(server.pid)} (KiB)")
        cpu0 = cpu_seconds(server.pid)
        result = run_httpx(
            f"{base}/v1/chat",
            tokens,
            json.dumps({"message": QUESTIONS[0]}),
            connections,
            duration_s,
            10**6,
        )
        cpu = cpu_seconds(server.pid) - cpu0
        print(
            f"{connections} clients, {result.seconds:.0f} s: {result.requests} answers, "
            f"{result.errors} errors, {result.rps:.1f} requests/s, p50 {result.p50_ms:.0f} ms, "
            f"p99 {result.p99_ms:.0f} ms; server CPU {1000 * cpu / max(result.requests, 1):.0f} "
            "ms per request"
        )
        print(f"after the load: {status_kib(server.pid)} (KiB; VmHWM is the peak)")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="a data folder to reuse (kept)")
    parser.add_argument("--corpus", type=Path, help="where the documents are written (kept)")
    parser.add_argument("--documents", type=int, default=590)
    parser.add_argument("--grow-to", type=int, default=0)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--duration", type=float, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        data = args.data or Path(tmp) / "data"
        ingest(data, args.corpus or Path(tmp) / "corpus", args.documents)
        if args.grow_to:
            grow(data / "qdrant", args.grow_to)
        serve_and_load(data, args.connections, args.duration)


if __name__ == "__main__":
    main()
