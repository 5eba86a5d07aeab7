"""A populated embedded deployment for the `warden migrate` tests: the sample knowledge base,
three accounts, each with a live upload and a few chat turns, and one expired upload; the
retrieval spot check run the way the service retrieves; and the source folder's fingerprint."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from pipelines.deps import PipelineDeps
from pipelines.nodes.retrieve import retrieve
from pipelines.ports import Embedder, PiiDetector
from pipelines.state import ChatTurn
from pipelines.tracing import new_trace_id
from service.auth.tokens import Principal
from service.bootstrap import build_container
from tests.e2e.conftest import ROOT, settings_for

PASSWORD = "correct horse battery staple"
USERS = (
    ("asha@example.org", "Asha Rao"),
    ("ravi@example.org", "Ravi Kumar"),
    ("meena@example.org", "Meena Iyer"),
)
UPLOADS = (
    b"Notes on my tenancy dispute. The landlord of flat 4B kept my security deposit of forty "
    b"thousand rupees and says the geyser repair justifies it. The rent agreement says the "
    b"deposit is refundable within thirty days of handing back the keys.\n",
    b"Notes on my consumer case. The washing machine bought in March stopped spinning after "
    b"two weeks; the dealer refused a replacement and the warranty card was never stamped.\n",
    b"Notes on my pension question. My father retired from the railways and his pension has "
    b"not been credited for three months; the pension payment order number is on the letter.\n",
)
UPLOAD_QUESTIONS = (
    "The landlord kept the security deposit for the geyser repair: can he?",
    "My washing machine stopped spinning and the dealer refuses a replacement",
    "My father's railway pension has not been credited for three months",
)
HISTORY = ("What is an FIR?", "hello there", "How do I file an RTI application?")
TURNS_PER_USER = 2  # the greeting is answered and saved too; see `populate`
KB_QUESTIONS = 17  # + the three upload questions = 20 spot checks


def kb_questions() -> list[str]:
    lines = (ROOT / "eval" / "sample_kb_questions.jsonl").read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [c["question"] for c in cases if c.get("document")][:KB_QUESTIONS]


async def populate(data: Path, embedder: Embedder, detector: PiiDetector) -> list[str]:
    """Accounts, uploads (one expired) and history in `data`; returns the user ids."""
    container = await build_container(settings_for(data), embedder=embedder, detector=detector)
    try:
        ids = []
        for (email, name), upload in zip(USERS, UPLOADS, strict=True):
            await container.accounts.register(email, PASSWORD, name, client="127.0.0.1")
            user = await container.store.user_by_email(email)
            assert user is not None
            ids.append(user.id)
            await container.documents.upload(
                upload, f"{name.split()[0]}-notes.txt", user_id=user.id
            )
            caller = Principal(user.id, name, email)
            for message in HISTORY:
                await container.chat.answer(caller, message)
        # expired an hour ago (uploads live 24 h), still within the store's day of TTL grace:
        # the source holds it, and the migration must leave it behind
        past = datetime.now(UTC) - timedelta(hours=25)
        expired = container.documents.with_clock(lambda: past)
        await expired.upload(UPLOADS[0], "expired-notes.txt", user_id=ids[0])
        return ids
    finally:
        await container.close()


async def spot_check(deps: PipelineDeps, questions: Sequence[tuple[str, str]]) -> list[Any]:
    """Each (question, user id) through the service's own classification and `retrieve`:
    its sources as (source, page, parent_id, score). Qdrant Edge and qdrant-client compute
    scores in their own float arithmetic: compare those with `same_sources`."""
    found = []
    for question, user_id in questions:
        verdict = deps.classify(question)
        turn = ChatTurn(question, user_id, "", new_trace_id(), time.perf_counter())
        update = await retrieve({"turn": turn, "verdict": verdict}, Runtime(context=deps))
        retrieval = update["retrieval"]
        assert retrieval.error is None
        found.append([(s.source, s.page, s.parent_id, s.score) for s in retrieval.sources])
    return found


def folder_state(folder: Path) -> dict[str, tuple[str, int, int]]:
    """Every file's content hash, size and modification time."""
    state = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        stat = path.stat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        state[str(path.relative_to(folder))] = (digest, stat.st_size, stat.st_mtime_ns)
    return state


def carry_files(source: Path, target: Path) -> None:
    """What the migration asks the operator to carry by hand (allowlist.json, data_key)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("allowlist.json", "data_key"):
        shutil.copy2(source / name, target / name)


def same_sources(one: list[Any], other: list[Any], *, tolerance: float = 1e-3) -> bool:
    """The same sources in the same order, scores equal within `tolerance`."""
    if [[s[:3] for s in found] for found in one] != [[s[:3] for s in found] for found in other]:
        return False
    scores = [
        (a[3], b[3]) for x, y in zip(one, other, strict=True) for a, b in zip(x, y, strict=True)
    ]
    return all(abs(a - b) <= tolerance for a, b in scores)
