"""`warden classify`: routes with reasons, no text unless asked, no stores, no lock."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service import bootstrap
from service.bootstrap import adapters as bootstrap_adapters
from service.main import main
from service.process_lock import ProcessLock

ABUSIVE = "you are a useless idiot"
GREETING = "good morning!"
QUESTION = "Hi, what is the notice period for eviction?"
SCORER_ONLY = "you smell like garbage"  # alt-profanity-check scores it 0.97
EMAIL = "asha.rao@example.org"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in list(os.environ):
        if name.startswith("WARDEN_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WARDEN_DATA_DIR", str(tmp_path / "data"))

    async def no_store(*_: Any, **__: Any) -> Any:
        raise AssertionError("classify must not open an embedder, an index or a store")

    for opener in ("open_embedder", "open_index", "open_store"):
        monkeypatch.setattr(bootstrap_adapters, opener, no_store)
    monkeypatch.setattr(bootstrap, "build_container", no_store)
    yield tmp_path / "data"


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, list[dict[str, Any]]]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr().out
    records = [json.loads(line) for line in out.splitlines()] if "--jsonl" in argv else []
    return code, out, records


def jsonl(*items: dict[str, str]) -> str:
    return "".join(json.dumps(item) + "\n" for item in items)


def test_routes_each_json_line_with_reasons_and_no_text(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = jsonl({"message": ABUSIVE}, {"question": GREETING}, {"message": QUESTION})
    code, out, records = run(capsys, monkeypatch, ["classify", "--jsonl"], lines + "\n")

    assert code == 0
    assert [r["route"] for r in records] == ["reject", "greeting", "question"]
    assert [r["query_type"] for r in records] == ["abusive", "greeting", "question"]
    assert records[0]["reasons"][0].startswith("abuse.")
    assert records[2]["reasons"] == ["question.greeting_with_content"]
    for record in records:
        assert record["reasons"]
        assert isinstance(record["latency_ms"], float) and record["latency_ms"] >= 0
        assert "message" not in record and "pii_entities" not in record
    for text in (ABUSIVE, GREETING, QUESTION, "idiot", "morning", "eviction"):
        assert text not in out
    assert not data_dir.exists()  # nothing opened or written in the data folder


def test_plain_text_lines_and_a_single_argument(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, records = run(
        capsys, monkeypatch, ["classify", "--jsonl", "--text"], f"{ABUSIVE}\n\n{GREETING}\n"
    )
    assert code == 0
    assert [r["route"] for r in records] == ["reject", "greeting"]

    code, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", QUESTION])
    assert code == 0 and [r["route"] for r in records] == ["question"]


def test_human_output_names_route_and_reasons_without_text(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, ["classify", ABUSIVE])
    assert code == 0
    assert out.startswith("reject ") and "abuse." in out and ABUSIVE not in out


def test_echo_adds_the_message(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", "--echo", GREETING])
    assert records[0]["message"] == GREETING


def test_uses_the_configured_rules_the_shipped_models_and_the_toxicity_scorer(
    data_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # rules with no insult words: only the scorer can reject (on a clause addressing "you")
    config = tmp_path / "config"
    config.mkdir()
    (config / "safety.yaml").write_text("abuse:\n  en:\n    lists:\n      second_person: [you]\n")
    monkeypatch.setenv("WARDEN_CONFIG_DIR", str(config))
    # the shipped insult model (found beside the shipped rules) decides first
    _, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", SCORER_ONLY])
    assert records[0]["route"] == "reject"
    assert records[0]["reasons"][0].startswith("abuse.model:")

    monkeypatch.setenv("WARDEN_SAFETY_MODELS", "false")
    _, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", SCORER_ONLY])
    assert records[0]["route"] == "reject"
    assert records[0]["reasons"][0].startswith("abuse.toxicity:")

    monkeypatch.setenv("WARDEN_TOXICITY_CLASSIFIER", "false")
    _, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", SCORER_ONLY])
    assert records[0]["route"] == "question"


def test_pii_reports_entity_types_only(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    message = f"My email is {EMAIL}, how do I reset my password?"
    code, out, records = run(capsys, monkeypatch, ["classify", "--jsonl", "--pii", message])
    assert code == 0
    assert records[0]["route"] == "question"
    assert records[0]["pii_entities"] == ["EMAIL_ADDRESS"]
    assert EMAIL not in out and "asha" not in out.lower()


def test_allowlisted_corpus_terms_are_not_reported(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir.mkdir()
    (data_dir / "allowlist.json").write_text(json.dumps({"terms": [EMAIL]}), encoding="utf-8")
    _, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", "--pii", f"mail {EMAIL}?"])
    assert records[0]["pii_entities"] == []


def test_bad_lines_are_reported_and_the_rest_still_classified(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "not json\n" + jsonl({"user": "x"}, {"message": GREETING}, {"message": "x" * 5000})
    code, out, records = run(capsys, monkeypatch, ["classify", "--jsonl"], lines)
    assert code == 1
    assert [r.get("error") or r["route"] for r in records] == [
        "malformed_json",
        "invalid_request",
        "greeting",
        "message_too_large",
    ]
    assert "not json" not in out


def test_works_while_the_service_holds_the_data_folder(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with ProcessLock(data_dir, command="serve", url="http://127.0.0.1:8000"):
        assert main(["ask", "hello"]) == 2  # the folder really is held
        capsys.readouterr()
        code, _, records = run(capsys, monkeypatch, ["classify", "--jsonl", ABUSIVE])
    assert code == 0 and records[0]["route"] == "reject"
