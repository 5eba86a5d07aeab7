"""Per-message store latency as one user's history grows (issue 14, acceptance 1).

    PYTHONPATH=. python bench/bench_history.py [--turns 20000] [--block 500]
        [--mode inprocess|wire] [--no-heads]

On a fresh embedded data folder: one user sends `block` messages (each one the store work a
chat message does: the history window, recent_history(limit=6), then save_turn of the 2
messages), then a new user sends `block`; then the writer's history is filled up to
`turns - block` turns in bulk (save_turn of 1,000 turns at a time: through the store, not the
pipeline), and both measurements run again: the writer's last `block` turns and a second new
user. Prints p50 / p95 in ms per block and last/first ratios (acceptance: <= 1.20).
`--no-heads` reads `chat_history` only (the store before the per-user heads), for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench._common import percentile
from pipelines.ports import ChatRecord
from service.adapters.store.mongo_open import open_embedded_store
from service.adapters.store.mongo_store import MongoStore

WINDOW = 6


def _turn(user: str, n: int, at: datetime) -> list[ChatRecord]:
    return [
        ChatRecord(user, "user", f"question {n} " * 8, at, f"{user}-{n}"),
        ChatRecord(user, "assistant", f"answer {n} " * 60, at, f"{user}-{n}", "question"),
    ]


async def _messages(store: MongoStore, user: str, first: int, count: int) -> list[float]:
    """`count` chat messages of `user`; the store time of each in ms."""
    timings = []
    since = datetime.now(UTC) - timedelta(days=30)
    for n in range(first, first + count):
        started = time.perf_counter()
        await store.recent_history(user, since=since, limit=WINDOW)
        await store.save_turn(_turn(user, n, datetime.now(UTC)))
        timings.append((time.perf_counter() - started) * 1000)
    return timings


async def _fill(store: MongoStore, user: str, first: int, last: int) -> None:
    start = datetime.now(UTC) - timedelta(days=1)
    for low in range(first, last, 1000):
        batch = [
            record
            for n in range(low, min(low + 1000, last))
            for record in _turn(user, n, start + timedelta(milliseconds=n))
        ]
        await store.save_turn(batch)


def _row(label: str, timings: list[float]) -> float:
    p50 = percentile(timings, 0.5)
    print(f"  {label:<34} p50 {p50:7.2f}   p95 {percentile(timings, 0.95):7.2f}")
    return p50


async def main(turns: int, block: int, mode: str, heads: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_embedded_store(Path(tmp), mode)  # type: ignore[arg-type]
        if not heads:
            store._heads = None  # bench only: the chat_history read alone
        try:
            print(f"mode={mode} heads={heads} turns={turns} block={block} (ms per message)")
            first_w = _row(f"writer, turns 1-{block}", await _messages(store, "writer", 0, block))
            first_n = _row("new user, empty folder", await _messages(store, "new-1", 0, block))
            started = time.perf_counter()
            await _fill(store, "writer", block, turns - block)
            print(f"  (bulk fill to {turns - block} turns: {time.perf_counter() - started:.0f} s)")
            last = await _messages(store, "writer", turns - block, block)
            last_w = _row(f"writer, turns {turns - block + 1}-{turns}", last)
            last_n = _row(
                f"new user, {turns} turns stored", await _messages(store, "new-2", 0, block)
            )
            ratios = f"writer {last_w / first_w:.2f}, new user {last_n / first_n:.2f}"
            print(f"  ratio last/first: {ratios}")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--mode", choices=["inprocess", "wire"], default="inprocess")
    parser.add_argument("--no-heads", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.turns, args.block, args.mode, not args.no_heads))
