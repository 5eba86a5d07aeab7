"""Per-message store latency as one user's history grows (issue 14, acceptance 1).

    PYTHONPATH=. python bench/bench_history.py [--turns 20000] [--block 500]
        [--mode inprocess|wire] [--no-heads]

Two embedded data folders in one process: FIRST starts empty, LAST is filled in bulk with
`turns - block` turns of the writer (save_turn of 1,000 turns at a time: through the store,
not the pipeline). Then, in alternating chunks of 10 (ABBA, so a busy neighbour on a shared
machine hits both sides alike), the writer sends `block` messages in each folder (turns
1..block in FIRST, the last `block` of `turns` in LAST) and a new user sends `block` messages
in each. A message is the store work of a chat message: the history window
(recent_history, limit 6), then save_turn of its 2 messages. Prints p50 / p95 in ms and the
LAST/FIRST ratios (acceptance: <= 1.20). `--no-heads` reads `chat_history` only (the store
before the per-user heads), for comparison.
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
CHUNK = 10


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
        first = await open_embedded_store(Path(tmp) / "first", mode)  # type: ignore[arg-type]
        last = await open_embedded_store(Path(tmp) / "last", mode)  # type: ignore[arg-type]
        if not heads:  # bench only: the chat_history read alone
            first._heads = last._heads = None
        try:
            print(f"mode={mode} heads={heads} turns={turns} block={block} (ms per message)")
            started = time.perf_counter()
            await _fill(last, "writer", 0, turns - block)
            print(f"  (bulk fill to {turns - block} turns: {time.perf_counter() - started:.0f} s)")
            runs: dict[str, list[float]] = {k: [] for k in ("w1", "w2", "n1", "n2")}
            for done in range(0, block, CHUNK):
                size = min(CHUNK, block - done)
                legs = [
                    ("w1", first, "writer", done),
                    ("w2", last, "writer", turns - block + done),
                    ("n1", first, "new-user", done),
                    ("n2", last, "new-user", done),
                ]
                for key, store, user, at in legs if done // CHUNK % 2 == 0 else legs[::-1]:
                    runs[key] += await _messages(store, user, at, size)
            w1 = _row(f"writer, turns 1-{block}", runs["w1"])
            n1 = _row("new user, empty folder", runs["n1"])
            w2 = _row(f"writer, turns {turns - block + 1}-{turns}", runs["w2"])
            n2 = _row(f"new user, {turns} turns stored", runs["n2"])
            print(f"  ratio last/first: writer {w2 / w1:.2f}, new user {n2 / n1:.2f}")
        finally:
            await first.close()
            await last.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--mode", choices=["inprocess", "wire"], default="inprocess")
    parser.add_argument("--no-heads", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.turns, args.block, args.mode, not args.no_heads))
