"""Embedded store modes compared: mongoeco's in-process client vs PyMongo over its wire server.

    PYTHONPATH=. python bench/store_modes.py [ROUNDS]

Each mode opens a fresh SQLite file already holding N messages (N = 0, 1000, 4000; loaded
in one bulk insert), then runs ROUNDS chat requests the way the pipeline does:
recent_history(limit=6) then save_turn (2 messages). Prints p50/p95 in ms, and the
wire/in-process ratio measured in the same run.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench._common import percentile as _p
from pipelines.ports import ChatRecord
from service.adapters.store.mongo_open import EmbeddedMode, open_embedded_store

USERS = 50


def _turn(user: str, n: int, at: datetime) -> list[ChatRecord]:
    return [
        ChatRecord(user, "user", f"question {n} " * 8, at, f"{user}-{n}"),
        ChatRecord(user, "assistant", f"answer {n} " * 60, at, f"{user}-{n}", "question"),
    ]


async def _prefill(folder: Path, messages: int, start: datetime) -> None:
    store = await open_embedded_store(folder, "inprocess")
    docs = []
    for n in range(messages // 2):
        for seq, record in enumerate(_turn(f"user-{n % USERS}", n, start)):
            docs.append({"_id": f"{record.turn_id}:{record.role}", "seq": seq, **vars(record)})
    if docs:
        await store._db.chat_history.insert_many(docs)  # bench only: bulk load
    await store.close()


async def measure(mode: EmbeddedMode, messages: int, rounds: int) -> dict[str, list[float]]:
    start = datetime.now(UTC) - timedelta(hours=1)
    timings: dict[str, list[float]] = {"recent_history": [], "save_turn": []}
    with tempfile.TemporaryDirectory() as tmp:
        await _prefill(Path(tmp), messages, start)
        store = await open_embedded_store(Path(tmp), mode)
        try:
            for n in range(rounds):
                user = f"user-{n % USERS}"
                t0 = time.perf_counter()
                await store.recent_history(user, since=start - timedelta(days=30), limit=6)
                t1 = time.perf_counter()
                await store.save_turn(_turn(user, 10**6 + n, datetime.now(UTC)))
                t2 = time.perf_counter()
                timings["recent_history"].append((t1 - t0) * 1000)
                timings["save_turn"].append((t2 - t1) * 1000)
        finally:
            await store.close()
    return timings


async def main(rounds: int) -> None:
    for messages in (0, 1000, 4000):
        medians: dict[str, dict[str, float]] = {}
        for mode in ("inprocess", "wire"):
            timings = await measure(mode, messages, rounds)  # type: ignore[arg-type]
            medians[mode] = {op: statistics.median(v) for op, v in timings.items()}
            cells = "  ".join(
                f"{op} p50 {statistics.median(v):6.1f} p95 {_p(v, 0.95):6.1f}"
                for op, v in timings.items()
            )
            print(f"{messages:5d} msgs  {mode:9s}  {cells}  (ms)", flush=True)
        ratios = "  ".join(
            f"{op} {medians['wire'][op] / medians['inprocess'][op]:.2f}x" for op in medians["wire"]
        )
        print(f"{messages:5d} msgs  wire/inprocess p50: {ratios}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
