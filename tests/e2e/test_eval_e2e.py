"""`warden eval` through the real CLI (service.main.main): retrieval on a scratch index of the
sample knowledge base with a fitted gate, and the guards; report.json's fields and the PNGs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ROOT, SAMPLE_KB, warden

QUESTIONS = ROOT / "eval" / "sample_kb_questions.jsonl"
GUARDS = ROOT / "eval" / "guards.jsonl"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SUBSET = 15


@pytest.fixture(autouse=True)
def _matplotlib_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib's font cache goes to a temporary folder, never the user's home."""
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))


def _valid_pngs(folder: Path, names: list[str]) -> None:
    assert names
    for name in names:
        data = (folder / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000, name


def test_the_sample_files_are_large_enough() -> None:
    rows = [json.loads(line) for line in QUESTIONS.read_text().splitlines()]
    assert sum("document" in r for r in rows) >= 80
    assert sum(r.get("expect") == "out_of_scope" for r in rows) >= 40
    documents = {r["document"] for r in rows if "document" in r}
    assert documents == {p.name for p in SAMPLE_KB.iterdir()}
    assert len(GUARDS.read_text().splitlines()) >= 50


def test_eval_retrieval_on_a_scratch_corpus_with_calibration(tmp_path: Path) -> None:
    subset = tmp_path / "qa.jsonl"
    subset.write_text("".join(QUESTIONS.read_text().splitlines(keepends=True)[:SUBSET]))
    data, out = tmp_path / "data", tmp_path / "report"
    argv = ["eval", "retrieval", "--qa", str(subset), "--corpus", str(SAMPLE_KB)]
    run = warden(data, *argv, "--out", str(out), "--calibrate", "--json")
    assert run.code == 0, run.err
    printed: dict[str, Any] = run.json()
    report = json.loads((out / "report.json").read_text())
    assert printed == {k: v for k, v in report.items() if k != "details"}
    assert report["questions"] == SUBSET and report["in_scope"] + report["out_of_scope"] == SUBSET
    retrieval = report["retrieval"]
    assert set(retrieval) >= {"recall@1", "recall@3", "recall@5", "mrr", "ndcg@5"}
    assert 0 < retrieval["recall@1"] <= retrieval["recall@3"] <= retrieval["recall@5"] <= 1
    assert report["gate"]["kind"] == "threshold"  # no calibration was installed before
    assert set(report["confidence"]) == {"in_scope", "out_of_scope"}
    assert 0 <= report["best_threshold"]["threshold"] <= 100
    calibration = report["calibration"]
    assert set(calibration) >= {"cut", "fit", "holdout", "path", "signals"}
    assert {"dense_top", "coverage", "named_coverage"} <= set(calibration["signals"])
    installed = json.loads((data / "calibration.json").read_text())  # WARDEN_DATA_DIR's
    assert installed == json.loads((out / "calibration.json").read_text())
    assert installed["max_in_scope_abstention"] == 0.03
    assert not (data / "qdrant").exists()  # the corpus went into a scratch folder
    _valid_pngs(out, report["plots"])
    assert "Who won" not in run.out  # question texts stay in the local report file


def test_eval_guards(tmp_path: Path) -> None:
    out = tmp_path / "guards"
    run = warden(tmp_path / "data", "eval", "guards", "--data", str(GUARDS), "--out", str(out))
    assert run.code == 0, run.err
    report = json.loads((out / "report.json").read_text())
    assert set(report["routes"]) == {"reject", "greeting", "question"}
    matrix = report["confusion"]["matrix"]
    assert sum(map(sum, matrix)) == report["messages"] == len(GUARDS.read_text().splitlines())
    assert report["misses"] == len(report["details"]["misses"])
    assert all(
        0 <= v["precision"] <= 1 and 0 <= v["recall"] <= 1 for v in report["routes"].values()
    )
    _valid_pngs(out, report["plots"])
    missed = [m["message"] for m in report["details"]["misses"]]
    assert not any(text in run.out for text in missed)  # the summary shows no message text


def test_a_bad_question_file_stops_before_any_work(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "secret text", "document": "a.md"}\n{"question": "x"}\n')
    run = warden(tmp_path / "data", "eval", "retrieval", "--qa", str(bad), "--out", str(tmp_path))
    assert run.code == 2
    assert "bad.jsonl:2" in run.err and "secret text" not in run.err
