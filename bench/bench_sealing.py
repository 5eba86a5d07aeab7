"""What sealing history at rest costs per chat message (service/adapters/store/sealed_history.py).

    PYTHONPATH=. python bench/bench_sealing.py [--messages 200]

Two embedded data folders (mongoeco on SQLite): PLAIN is the store as it was, SEALED the same
store behind SealedHistoryStore with the real Presidio detector (behind RecentDetections, which
has seen the question, as `retrieve` masked it first; untimed). A message is the store work
of a chat message: the history window (recent_history, limit 6), then save_turn of a question
with an e-mail and a phone number and a ~700-character extractive answer. Chunks of 10
alternate ABBA. Prints p50 / p95 in ms (and the process CPU time per message, which a busy
machine disturbs less) and the SEALED/PLAIN difference and ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench._common import percentile
from pipelines.ports import ChatRecord, ChatStore, PiiDetector
from service.adapters.pii.presidio_detector import PresidioPiiDetector
from service.adapters.pii.recent_detections import RecentDetections
from service.adapters.store.history_cipher import HistoryCipher
from service.adapters.store.mongo_open import open_embedded_store
from service.adapters.store.sealed_history import SealedHistoryStore

QUESTION = (
    "The police refused to register my FIR about the stolen phone. What can I do? "
    "Reach me at asha{n}@example.org or +91 98765 4{n:04d}."
)
ANSWER = (
    "Extracted from the knowledge base: if the officer in charge refuses to register an FIR, "
    "send the substance of the information in writing to the Superintendent of Police [1]. "
    "The Superintendent may investigate or direct an investigation [1]. You may also apply "
    "to the Magistrate, who can order the police to register it [2]. Case {n}. "
) * 2


async def _message(
    store: ChatStore, n: int, masked_first: PiiDetector | None
) -> tuple[float, float]:
    question, answer = QUESTION.format(n=n), ANSWER.format(n=n)
    if masked_first is not None:  # what `retrieve` did before the turn is stored
        await masked_first.detect(question)
    started, cpu = time.perf_counter(), time.process_time()
    now = datetime.now(UTC)
    await store.recent_history("u1", since=now - timedelta(days=30), limit=6)
    turn = f"t{n}"
    await store.save_turn(
        [
            ChatRecord("u1", "user", question, now, turn, "question"),
            ChatRecord("u1", "assistant", answer, now, turn, "question"),
        ]
    )
    return (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000


async def main(messages: int) -> None:
    presidio = PresidioPiiDetector()
    presidio.warm()
    detector = RecentDetections(presidio)  # shared with `retrieve`, as bootstrap wires it
    with tempfile.TemporaryDirectory() as plain_dir, tempfile.TemporaryDirectory() as sealed_dir:
        plain = await open_embedded_store(Path(plain_dir))
        inner = await open_embedded_store(Path(sealed_dir))
        sealed = SealedHistoryStore(inner, HistoryCipher([os.urandom(32)]), detector)
        times: dict[str, list[float]] = {"plain": [], "sealed": []}
        cpu: dict[str, list[float]] = {"plain": [], "sealed": []}
        order: list[tuple[str, ChatStore]] = [
            ("plain", plain),
            ("sealed", sealed),
            ("sealed", sealed),
            ("plain", plain),
        ]
        n = 0
        while n < messages:
            for name, store in order:
                for _ in range(10):
                    masked_first = detector if store is sealed else None
                    wall, used = await _message(store, n, masked_first)
                    times[name].append(wall)
                    cpu[name].append(used)
                    n += 1
        await plain.close()
        await sealed.close()
    for name, samples in times.items():
        p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
        cpu_p50 = percentile(cpu[name], 0.5)
        print(f"{name:7} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  process CPU p50 {cpu_p50:6.2f} ms")
    plain_p50, sealed_p50 = percentile(times["plain"], 0.5), percentile(times["sealed"], 0.5)
    print(
        f"sealed - plain p50: {sealed_p50 - plain_p50:.2f} ms; ratio {sealed_p50 / plain_p50:.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    asyncio.run(main(parser.parse_args().messages))
