"""Sizing figures for the deployment section of the README: disk per vector and per history
message, and chats per second of one worker.

    python bench/bench_sizing.py [--points 2000 20000] [--messages 2000] [--chats 60]

- vectors: the sample knowledge base ingested for real (Qdrant Edge), then its points copied
  with new ids (vectors slightly perturbed, same payloads) into fresh Edge folders of each
  size; disk blocks in use (`du`) after optimize() and close, per point. The payload (the
  parent text rides on every child) is most of a point: 384 floats are 1.5 KiB.
- store: one user's history saved turn by turn (a 90-character question, a 600-character
  answer) into the embedded store (mongoeco on SQLite): file size per message; and the BSON
  size of each record kind, which is what MongoDB stores before compression and indexes.
- chats per worker: the in-scope questions of eval/sample_kb_questions.jsonl answered one
  after another through ChatService in one process (embedded stores, extractive answers,
  no model), each question once (no cache hits): chats/s and CPU ms per chat.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import bson
import numpy as np
import qdrant_edge as qe

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ROOT  # noqa: E402
from pipelines.ports import ChatRecord, DocumentRecord, UserRecord  # noqa: E402
from service.adapters.store.mongo_documents import chat_doc, document_doc, user_doc  # noqa: E402
from service.adapters.store.mongo_open import open_embedded_store  # noqa: E402
from service.adapters.vector.qdrant_edge import QdrantEdgeIndex  # noqa: E402
from service.auth.tokens import Principal  # noqa: E402
from service.bootstrap import build_container  # noqa: E402
from service.settings import Settings  # noqa: E402

MIB = 1024 * 1024


def disk_bytes(folder: Path) -> int:
    out = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0]) * 1024


def ingest_sample(data: Path) -> None:
    env = {**os.environ, "WARDEN_DATA_DIR": str(data)}
    warden = Path(sys.executable).parent / "warden"
    subprocess.run(
        [str(warden), "ingest", str(ROOT / "sample_kb"), "--json"],
        env=env,
        check=True,
        capture_output=True,
    )


def sample_points(edge: Path) -> list[qe.Point]:
    shard = qe.EdgeShard.load(str(edge))
    page, _ = shard.scroll(qe.ScrollRequest(limit=100_000, with_payload=True, with_vector=True))
    shard.close()
    return [qe.Point(r.id, r.vector, r.payload) for r in page]  # type: ignore[arg-type]


def vectors(points: list[qe.Point], sizes: list[int], scratch: Path) -> None:
    rng = np.random.default_rng(7)
    print("\n## disk per vector (Qdrant Edge, sample-KB payloads)")
    print("| points | folder on disk | bytes per point | points per GiB |")
    print("| ---: | ---: | ---: | ---: |")
    for size in sizes:
        folder = scratch / f"edge-{size}"
        index = QdrantEdgeIndex.open(folder, 384)
        asyncio.run(index.close())
        shard = qe.EdgeShard.load(str(folder))
        batch: list[qe.Point] = []
        for i in range(size):
            source = points[i % len(points)]
            vector = dict(source.vector)  # type: ignore[arg-type]
            dense = np.asarray(vector[""], dtype=np.float32)
            dense = dense + rng.normal(0, 0.01, dense.shape).astype(np.float32)
            vector[""] = (dense / np.linalg.norm(dense)).tolist()
            batch.append(qe.Point(uuid.uuid4(), vector, source.payload))  # type: ignore[arg-type]
            if len(batch) == 512:
                shard.update(qe.UpdateOperation.upsert_points(batch))
                batch = []
        if batch:
            shard.update(qe.UpdateOperation.upsert_points(batch))
        shard.optimize()
        shard.close()
        used = disk_bytes(folder)
        per_gib = size * 1024**3 / used
        print(f"| {size:,} | {used / MIB:.1f} MiB | {used / size:,.0f} | {per_gib:,.0f} |")


async def store(messages: int, scratch: Path) -> None:
    folder = scratch / "store"
    db = await open_embedded_store(folder)
    empty = disk_bytes(folder / "mongoeco")
    now = datetime.now(UTC)
    question, answer = "q" * 90, "a" * 600
    for turn in range(messages // 2):
        await db.save_turn(
            [
                ChatRecord("user-1", "user", question, now, f"t{turn}"),
                ChatRecord("user-1", "assistant", answer, now, f"t{turn}"),
            ]
        )
    await db.close()
    used = disk_bytes(folder / "mongoeco") - empty
    print("\n## disk per history message")
    print(
        f"embedded store (SQLite), {messages:,} messages: {used / messages:,.0f} bytes/message "
        f"({messages * 1024**3 / max(used, 1):,.0f} per GiB)"
    )
    records = {
        "a 600-character answer": chat_doc(ChatRecord("u", "assistant", answer, now, "t" * 32)),
        "a 90-character question": chat_doc(ChatRecord("u", "user", question, now, "t" * 32)),
        "an account": user_doc(
            UserRecord(
                "u" * 32,
                "asha.rao@example.org",
                "Asha Rao",
                "$argon2id$v=19$m=65536,t=3,p=4$" + "x" * 70,
                now,
            )
        ),
        "an upload record": document_doc(
            DocumentRecord("d" * 32, "u" * 32, "notes.pdf", 40, now, now)
        ),
    }
    for what, doc in records.items():
        print(f"BSON of {what}: {len(bson.encode(doc))} bytes")


async def chats(data: Path, count: int) -> None:
    lines = (ROOT / "eval" / "sample_kb_questions.jsonl").read_text().splitlines()
    questions = [json.loads(x)["question"] for x in lines if x.strip() and '"document"' in x]
    questions = questions[:count]
    settings = Settings(_env_file=None, data_dir=data, rate_limit_per_minute=0)  # type: ignore[call-arg]
    container = await build_container(settings)
    caller = Principal("bench-user", "", "")
    try:
        await container.chat.answer(caller, "What is bail?")  # warm-up
        cpu0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        for question in questions:
            await container.chat.answer(caller, question)
        wall = time.perf_counter() - t0
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        await container.close()
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    print("\n## chats per worker (question path, extractive answers, embedded stores)")
    print(
        f"{len(questions)} chats in {wall:.1f} s: {len(questions) / wall:.1f} chats/s, "
        f"{1000 * wall / len(questions):.0f} ms wall and {1000 * cpu / len(questions):.0f} ms CPU "
        "per chat (all threads)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--chats", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sizing-") as tmp:
        scratch = Path(tmp)
        data = scratch / "data"
        ingest_sample(data)
        kb = disk_bytes(data / "qdrant")
        points = sample_points(data / "qdrant")
        print(
            f"sample knowledge base: {len(points)} points, Edge folder {kb / MIB:.1f} MiB on disk"
        )
        vectors(points, args.points, scratch)
        asyncio.run(store(args.messages, scratch))
        asyncio.run(chats(data, args.chats))
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
