"""Acceptance 2 and 3 (the embedded half): an index built with another embedding model is
refused at start, naming both models and `warden reindex`; `warden reindex` re-embeds the
stored chunks (no source files needed) and the same question brings back the same sources.
`warden serve --workers 2` on the embedded stores refuses with a clear message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.conftest import BAIL_QUESTION, Prepared, copy_data, warden

OTHER_MODEL = {"warden_embedding_model": "all-mpnet-base-v2", "warden_embedding_dimension": 768}


def _sources(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["source"], s["parent_id"]) for s in answer["sources"]]


def test_a_model_mismatch_is_refused_and_reindex_fixes_it(
    prepared: Prepared, tmp_path: Path
) -> None:
    data = copy_data(prepared.data, tmp_path)
    before = warden(data, "ask", BAIL_QUESTION, "--json")
    assert before.code == 0, before.err
    record = data / "qdrant" / "embedding_model.json"
    assert json.loads(record.read_text())["warden_embedding_model"] == "all-MiniLM-L6-v2-int8"
    record.write_text(json.dumps({**OTHER_MODEL, "warden_embedding_dimension": 384}))

    for argv in (("ask", BAIL_QUESTION, "--json"), ("serve", "--port", "1")):
        refused = warden(data, *argv)
        assert refused.code == 2, (argv, refused.err)
        assert "'all-mpnet-base-v2' (384 dimensions)" in refused.err
        assert "'all-MiniLM-L6-v2-int8' (384 dimensions)" in refused.err
        assert "`warden reindex`" in refused.err
        assert "Traceback" not in refused.err

    fixed = warden(data, "reindex", "--json")
    assert fixed.code == 0, fixed.err
    report = fixed.json()
    assert report["previous"] == "all-mpnet-base-v2"
    assert report["model"] == "all-MiniLM-L6-v2-int8"
    assert report["points"] > 100 and report["core"] == report["points"]
    assert report["dropped"] == 0 and not report["skipped"]

    after = warden(data, "ask", BAIL_QUESTION, "--json")
    assert after.code == 0, after.err
    assert _sources(after.json()) == _sources(before.json())

    again = warden(data, "reindex", "--json")
    assert again.code == 0 and again.json()["skipped"] is True


def test_several_workers_on_the_embedded_stores_are_refused(tmp_path: Path) -> None:
    run = warden(tmp_path / "data", "serve", "--workers", "2")
    assert run.code == 2
    assert "--workers 2 needs servers" in run.err
    assert "belong to one process" in run.err
    assert "WARDEN_QDRANT_URL" in run.err and "WARDEN_MONGODB_URI" in run.err
    assert not (tmp_path / "data" / "qdrant").exists()  # refused before opening anything
