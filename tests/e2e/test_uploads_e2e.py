"""Acceptance 3 (a question: merged from BOTH searches) and SPEC 6.4 (tenant isolation) on the
real stores: a user's own live upload competes with the core knowledge in that user's
answers, and never shows up in anyone else's; an expired upload shows up in nobody's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ingestion.indexer import index_upload
from service.bootstrap import open_embedder, open_index
from tests.e2e.conftest import (
    Prepared,
    assert_ask_fields,
    copy_data,
    distinct_parents,
    json_lines,
    settings_for,
    warden,
)

QUESTION = "What conditions can a court set when it grants bail?"
NOTES = (
    b"My notes on bail conditions.\n\n"
    b"When the court grants bail it can set conditions: the accused must report to the police "
    b"station every week, surrender the passport, not leave the city, and give a surety. "
    b"The magistrate set these bail conditions for my brother.\n"
)
OWNER, OTHER = "u-alice", "u-bob"


async def _upload(data: Path, uploads: list[tuple[str, str, datetime]]) -> None:
    """What POST /v1/documents does to the vector index, on the real embedder and index."""
    embedder = await open_embedder()
    index = await open_index(settings_for(data), embedder.dimension)
    try:
        for filename, doc_id, expires_at in uploads:
            chunks = await index_upload(
                NOTES,
                filename,
                user_id=OWNER,
                doc_id=doc_id,
                expires_at=expires_at,
                embedder=embedder,
                index=index,
            )
            assert chunks >= 1
    finally:
        await index.close()


def test_own_upload_is_merged_with_core_and_hidden_from_others(
    prepared: Prepared, tmp_path: Path
) -> None:
    """Sync on purpose: `warden` (service.main.main) runs its own event loop."""
    data = copy_data(prepared.data, tmp_path)
    now = datetime.now(UTC)
    live = ("my-bail-notes.txt", "up-live", now + timedelta(hours=1))
    expired = ("old-bail-notes.txt", "up-expired", now - timedelta(minutes=1))  # same text
    asyncio.run(_upload(data, [live, expired]))

    lines = json_lines({"question": QUESTION, "user": OWNER}, {"question": QUESTION, "user": OTHER})
    run = warden(data, "ask", stdin=lines)
    assert run.code == 0, run.err
    mine, theirs = run.json_lines()
    for answer in (mine, theirs):
        assert_ask_fields(answer)
        assert answer["route"] == "question" and answer["confidence"] > 0
        assert 1 <= len(answer["sources"]) <= 3 and distinct_parents(answer["sources"])

    names = [s["source"] for s in mine["sources"]]
    assert "my-bail-notes.txt" in names, names  # from the user's own temporary documents
    assert "bail-basics.txt" in names, names  # and from the core knowledge, in one list
    assert "old-bail-notes.txt" not in names  # expired: not searched
    others = [s["source"] for s in theirs["sources"]]
    assert not {"my-bail-notes.txt", "old-bail-notes.txt"} & set(others), others
    assert "bail-basics.txt" in others
