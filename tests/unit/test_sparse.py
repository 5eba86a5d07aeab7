"""The sparse encoder (pipelines/ports/sparse.py) and rank fusion (pipelines/fusion.py)."""

from __future__ import annotations

import pytest

from pipelines.fusion import Ranked, fuse
from pipelines.ports import SearchHit
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


def hit(pid: str, parent: str, score: float) -> SearchHit:
    return SearchHit(pid, score, {"parent_id": parent, "text": pid})


@pytest.mark.parametrize(
    ("dense", "sparse", "order", "agreement"),
    [
        ([], [], [], 0.0),
        ([("d1", "A", 0.9), ("d2", "B", 0.8)], [], ["A", "B"], 0.0),
        ([], [("s1", "B", 5.0), ("s2", "A", 3.0)], ["B", "A"], 0.0),
        # B is second in both: it beats A (first dense only) and C (first sparse only)
        (
            [("d1", "A", 0.9), ("d2", "B", 0.8)],
            [("s1", "C", 5.0), ("s2", "B", 4.0)],
            ["B", "A", "C"],
            0.0,
        ),
        (
            [("d1", "A", 0.9), ("d2", "A", 0.8), ("d3", "B", 0.7)],
            [("s1", "A", 2.0)],
            ["A", "B"],
            1.0,
        ),
    ],
)
def test_fuse_ranks_parents_by_reciprocal_rank(
    dense: list[tuple[str, str, float]],
    sparse: list[tuple[str, str, float]],
    order: list[str],
    agreement: float,
) -> None:
    fused = fuse(
        Ranked.of([hit(*d) for d in dense]),
        Ranked.of([hit(*s) for s in sparse]),
        top_parents=3,
        k=60,
        sparse_weight=1.0,
    )
    assert [h.payload["parent_id"] for h in fused.best] == order
    cosine = {p: s for _, p, s in reversed(dense)}
    assert [h.score for h in fused.best] == [cosine.get(p, 0.0) for p in order]
    assert fused.signals["agreement"] == agreement
    assert fused.signals["dense_top"] == (max(s for *_, s in dense) if dense else 0.0)
    assert fused.signals["margin"] == pytest.approx(
        fused.signals["fused_top"] - fused.signals["fused_second"]
    )


def test_fuse_keeps_the_dense_child_and_cosine_of_a_parent_both_found() -> None:
    fused = fuse(
        Ranked.of([hit("d1", "A", 0.7)], [hit("p1", "B", 0.6)]),
        Ranked.of([hit("s1", "A", 9.0)]),
        top_parents=1,
    )
    assert [(h.id, h.score) for h in fused.best] == [("d1", 0.7)]
    assert fused.signals["top_in_both"] == 1.0 and fused.signals["sparse_top"] == 9.0
    assert fused.signals["fused_top"] == pytest.approx(1 / 21 + 1.5 / 21)  # k 20, sparse x1.5
