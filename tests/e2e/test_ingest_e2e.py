"""Acceptance 4: `warden ingest --json` is idempotent, replaces only an edited document, and
`--delete-missing` removes a deleted one; `--json` prints exactly one object of four counts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import COUNTS, SAMPLE_DOCS, Prepared, copy_data, warden


def _counts(run_out: str) -> dict[str, int]:
    lines = run_out.splitlines()
    assert len(lines) == 1, f"--json must print one line, got {run_out!r}"
    counts = json.loads(lines[0])
    assert isinstance(counts, dict) and set(counts) == COUNTS
    return counts


def test_ingest_twice_then_edit_then_delete(prepared: Prepared, tmp_path: Path) -> None:
    first = _counts(prepared.first_ingest.out)
    assert first == {"added": SAMPLE_DOCS, "replaced": 0, "skipped": 0, "removed": 0}
    data = copy_data(prepared.data, tmp_path)  # `prepared.data` stays as first ingested
    kb = prepared.kb  # doc ids are relative to this folder; nobody else reads it

    again = warden(data, "ingest", str(kb), "--json")
    assert again.code == 0, again.err
    assert _counts(again.out) == {"added": 0, "replaced": 0, "skipped": SAMPLE_DOCS, "removed": 0}
    assert "skipped lok-adalat.md" in again.err  # progress goes to stderr, never to stdout

    edited = kb / "lok-adalat.md"
    edited.write_text(edited.read_text() + "\nA Lok Adalat award cannot be appealed.\n")
    replaced = warden(data, "ingest", str(kb), "--json")
    assert replaced.code == 0, replaced.err
    assert _counts(replaced.out) == {
        "added": 0,
        "replaced": 1,
        "skipped": SAMPLE_DOCS - 1,
        "removed": 0,
    }
    assert "replaced lok-adalat.md" in replaced.err

    (kb / "tenancy-rent-agreements.txt").unlink()
    kept = warden(data, "ingest", str(kb), "--json")  # without --delete-missing: kept
    assert _counts(kept.out)["removed"] == 0
    removed = warden(data, "ingest", str(kb), "--delete-missing", "--json")
    assert removed.code == 0, removed.err
    assert _counts(removed.out) == {
        "added": 0,
        "replaced": 0,
        "skipped": SAMPLE_DOCS - 1,
        "removed": 1,
    }
    assert "removed tenancy-rent-agreements.txt" in removed.err
