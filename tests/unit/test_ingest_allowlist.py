"""ingestion.allowlist: corpus names and acronyms, never sentence openers or bare surnames."""

from __future__ import annotations

from pathlib import Path

from ingestion.allowlist import build_allowlist, load_allowlist, normalise, save_allowlist
from ingestion.loaders import load_document

SAMPLE_KB = Path(__file__).resolve().parents[2] / "sample_kb"

CORPUS = [
    "# The Constitution\n\n"
    "Dr. B. R. Ambedkar chaired the Drafting Committee. The Supreme Court of India hears "
    "appeals. Contact the DLSA for help. Please contact a lawyer. Rajendra Prasad presided.\n"
    "FIR means First Information Report; the CrPC was replaced by the BNSS.\n"
    "BAIL IN INDIA: THE BASICS\n"
    "S. P. Gupta v. Union of India was decided in 1981. The fee is Rs. 10 under the Act."
]


def test_names_and_acronyms_are_found() -> None:
    terms = build_allowlist(CORPUS)
    expected = {
        "Dr. B. R. Ambedkar", "B. R. Ambedkar", "Drafting Committee", "Supreme Court of India",
        "FIR", "First Information Report", "CrPC", "BNSS", "DLSA", "Rajendra Prasad",
        "S. P. Gupta", "Union of India",
    }  # fmt: skip
    assert expected <= terms


def test_openers_headings_shouting_and_surnames_are_left_out() -> None:
    terms = build_allowlist(CORPUS)
    for unwanted in ["Contact the DLSA", "The Constitution", "BAIL", "THE", "Ambedkar", "Gupta"]:
        assert unwanted not in terms
    assert not any(t.startswith(("The ", "Please")) or "Rs" in t for t in terms)


def test_sample_knowledge_base_yields_its_public_names() -> None:
    texts = [page.text for path in sorted(SAMPLE_KB.iterdir()) for page in load_document(path)]
    terms = {normalise(t) for t in build_allowlist(texts)}
    for name in ["dr. b. r. ambedkar", "lok adalat", "nalsa", "hussainara khatoon", "rti"]:
        assert name in terms


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "data" / "allowlist.json"
    assert load_allowlist(path) == set()
    save_allowlist(path, {"NALSA", "Lok Adalat"})
    assert load_allowlist(path) == {"NALSA", "Lok Adalat"}
    assert not list(path.parent.glob("*.tmp"))
