"""Coverage signals: how much of the question the top passage holds (pipelines/coverage.py)."""

from __future__ import annotations

import pytest

from pipelines.coverage import coverage_signals, covered, gate_signals, named_terms, terms_found
from pipelines.fusion import Ranked, fuse
from pipelines.ports import SearchHit
from pipelines.ports.sparse import tokens


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What did Marie Curie discover in 1898?", {"marie", "curie", "1898"}),
        ("Who founded the RTI movement?", {"rti"}),  # an acronym
        ("Where is Delhi?", {"delhi"}),
        ("Delhi is where?", set()),  # the first word is capitalised by position only
        ("how do I file a complaint", set()),  # lower case: nothing named
        ("Can I Appeal within 30 Months?", {"appeal", "30", "month"}),  # the encoder's stems
        ("What does The do?", set()),  # a stop word stays out even when capitalised
        ("", set()),
    ],
)
def test_named_terms(question: str, named: set[str]) -> None:
    assert named_terms(question) == named


@pytest.mark.parametrize(
    ("terms", "passage", "empty", "share"),
    [
        ({"a1", "b2"}, {"a1", "b2", "c3"}, 0.0, 1.0),
        ({"a1", "b2"}, {"a1"}, 0.0, 0.5),
        ({"a1", "b2", "c3", "d4"}, {"zz"}, 0.0, 0.0),
        (set(), {"a1"}, 0.0, 0.0),  # no terms: the given value
        (set(), {"a1"}, 1.0, 1.0),
    ],
)
def test_covered(terms: set[str], passage: set[str], empty: float, share: float) -> None:
    assert covered(terms, passage, empty=empty) == pytest.approx(share)


@pytest.mark.parametrize(
    ("asked", "passage", "found"),
    [
        ({"party", "fir"}, "Both parties went first.", {"party"}),  # "fir" is not "first"
        ({"fir"}, "File an FIR, or a zero-FIR.", {"fir"}),
        ({"complaint", "police"}, "COMPLAINTS to the Police", {"complaint", "police"}),
        ({"form", "12"}, "form_12 is due", {"form", "12"}),  # the encoder splits on "_"
        ({"abc"}, "ＡＢＣ", {"abc"}),  # NFKC: full-width letters
        ({"rent"}, "current rents", {"rent"}),  # found in "rents", not "current"
        ({"rent"}, "current", set()),
        (set(), "anything", set()),
    ],
)
def test_terms_found_is_the_encoders_intersection(
    asked: set[str], passage: str, found: set[str]
) -> None:
    assert terms_found(asked, passage) == found == asked & set(tokens(passage))


PASSAGE = "Marie Curie discovered polonium in 1898, working in Paris."


@pytest.mark.parametrize(
    ("question", "coverage", "named"),
    [
        ("What did Marie Curie discover in 1898?", 1.0, 1.0),  # "discover" ~ "discovered"
        ("Where did Curie work?", 1.0, 1.0),  # "working" is stemmed to "work"
        ("Where did Curie live?", 0.5, 1.0),
        ("What did Einstein discover in 1905?", 1 / 3, 0.0),  # the names are the ones missing
        ("what did she discover", 1.0, 1.0),  # nothing named: nothing to miss
        ("Is cricket popular in Mumbai?", 0.0, 0.0),
        ("what is it?", 0.0, 1.0),  # no content term at all
    ],
)
def test_coverage_signals(question: str, coverage: float, named: float) -> None:
    signals = coverage_signals(question, PASSAGE)
    assert signals["coverage"] == pytest.approx(coverage)
    assert signals["named_coverage"] == pytest.approx(named)


def _hit(hit_id: str, parent: str, score: float, parent_text: str) -> SearchHit:
    payload = {"parent_id": parent, "parent_text": parent_text, "text": parent_text}
    return SearchHit(hit_id, score, payload)


@pytest.mark.parametrize(
    ("dense", "coverage"),
    [
        ([("c1", "p1", 0.8, PASSAGE), ("c2", "p2", 0.5, "Bail is a release.")], 1.0),
        ([("c2", "p2", 0.8, "Bail is a release."), ("c1", "p1", 0.5, PASSAGE)], 0.0),
        ([], 0.0),  # nothing found: nothing covers the question
    ],
)
def test_gate_signals_read_the_fused_top_parent(
    dense: list[tuple[str, str, float, str]], coverage: float
) -> None:
    fusion = fuse(Ranked.of([_hit(*d) for d in dense]), Ranked.of([]), top_parents=2)
    signals = gate_signals(fusion, "What did Marie Curie discover in 1898?")
    assert signals["coverage"] == pytest.approx(coverage)
    assert {k: v for k, v in signals.items() if k in fusion.signals} == fusion.signals
