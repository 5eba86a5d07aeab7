"""Overlap resolution for PII spans: one span per overlapping group, nothing left uncovered."""

from __future__ import annotations

import pytest

from pipelines.ports import PiiSpan, resolve_overlaps

S = PiiSpan

CASES = [
    ("empty", [], []),
    ("disjoint kept in order", [S(10, 12, "B"), S(0, 5, "A")], [S(0, 5, "A"), S(10, 12, "B")]),
    ("touching stay apart", [S(0, 5, "A"), S(5, 9, "B")], [S(0, 5, "A"), S(5, 9, "B")]),
    (
        "same span: higher score wins",
        [S(0, 11, "PHONE_NUMBER", 0.4), S(0, 11, "US_SSN", 0.5)],
        [S(0, 11, "US_SSN", 0.5)],
    ),
    (
        "nested: covers the longer, type of the higher score",
        [S(0, 20, "PHONE_NUMBER", 0.4), S(4, 16, "IN_AADHAAR", 1.0)],
        [S(0, 20, "IN_AADHAAR", 1.0)],
    ),
    (
        "equal score: the longer wins",
        [S(2, 6, "A", 0.5), S(0, 10, "B", 0.5)],
        [S(0, 10, "B", 0.5)],
    ),
    (
        "chained overlaps merge transitively",
        [S(0, 4, "A", 0.3), S(3, 8, "B", 0.9), S(7, 12, "C", 0.5), S(20, 22, "D", 0.1)],
        [S(0, 12, "B", 0.9), S(20, 22, "D", 0.1)],
    ),
]


@pytest.mark.parametrize(("spans", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_resolve_overlaps(spans: list[PiiSpan], expected: list[PiiSpan]) -> None:
    assert resolve_overlaps(spans) == expected
