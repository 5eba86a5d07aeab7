"""The sparse encoder (pipelines/ports/sparse.py); fusion is in test_fusion.py."""

from __future__ import annotations

import pytest

from pipelines.ports.sparse import K1, encode_document, encode_query, term_id, tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("The police refused my FIR!", ["police", "refus", "fir"]),
        ("Complaints, complaint; COMPLAINTS", ["complaint", "complaint", "complaint"]),
        ("policies and policy", ["policy", "policy"]),
        ("filing vs filed", ["fil", "vs", "fil"]),
        ("class bus analysis", ["class", "bus", "analysis"]),
        ("boxes and dishes", ["box", "dish"]),
        ("Section 41A of the BNSS, 2023", ["section", "41a", "bnss", "2023"]),
        ("a I x 7", ["7"]),  # stop words and one-letter words go, digits stay
        ("ﬁle café_bar", ["file", "café", "bar"]),  # NFKC; underscores split
    ],
)
def test_tokens(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected


@pytest.mark.parametrize(
    ("text", "terms", "values"),
    [
        ("", [], []),
        ("bail bail bail", ["bail"], [3 * (K1 + 1) / (3 + K1 * (1 - 0.75 + 0.75 * 3 / 60))]),
        ("bail court", ["bail", "court"], [(K1 + 1) / (1 + K1 * (0.25 + 0.75 * 2 / 60))] * 2),
    ],
)
def test_encode_document_saturates_term_frequency(
    text: str, terms: list[str], values: list[float]
) -> None:
    vector = encode_document(text)
    expected = sorted(zip((term_id(t) for t in terms), values, strict=True))
    assert list(vector.indices) == [i for i, _ in expected]
    assert list(vector.values) == pytest.approx([v for _, v in expected])


@pytest.mark.parametrize(
    ("text", "count"),
    [("", 0), ("What is bail?", 1), ("bail bail court", 2), ("the of and", 0)],
)
def test_encode_query_weighs_each_distinct_term_once(text: str, count: int) -> None:
    vector = encode_query(text)
    assert len(vector.indices) == count and set(vector.values) <= {1.0}
    assert list(vector.indices) == sorted(set(vector.indices)) and bool(vector) == (count > 0)


def test_term_ids_are_stable_31_bit_integers() -> None:
    assert term_id("bail") == term_id("bail") != term_id("court")
    assert all(0 <= term_id(w) < 2**31 for w in ("bail", "court", "ü", "x" * 500))
    assert encode_document("long " * 500).values[0] < K1 + 1  # saturates below k1 + 1
