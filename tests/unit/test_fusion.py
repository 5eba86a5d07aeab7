"""Hybrid ranking (pipelines/fusion.py): the convex combination of the dense cosine and the
relative BM25 score per parent, the cosine kept on each hit, and the gate's signals."""

from __future__ import annotations

import pytest

from pipelines.fusion import SPARSE_SHARE, Ranked, fuse, fused_scores
from pipelines.ports import SearchHit

Hits = list[tuple[str, str, float]]  # (child id, parent id, score)


def hit(pid: str, parent: str, score: float) -> SearchHit:
    return SearchHit(pid, score, {"parent_id": parent, "text": pid})


def ranked(hits: Hits) -> Ranked:
    return Ranked.of([hit(*h) for h in hits])


@pytest.mark.parametrize(
    ("dense", "sparse", "share", "expected"),
    [
        ([], [], 0.1, {}),
        ([("d1", "A", 0.8)], [], 0.1, {"A": 0.72}),  # no sparse hit: 0.9 x cosine
        ([], [("s1", "B", 4.0)], 0.1, {"B": 0.1}),  # nothing dense: the floor is 0
        # BM25 counts relative to its top; a sparse-only parent takes the lowest cosine
        (
            [("d1", "A", 0.8), ("d2", "B", 0.6)],
            [("s1", "B", 4.0), ("s2", "C", 2.0)],
            0.1,
            {"A": 0.72, "B": 0.54 + 0.1, "C": 0.54 + 0.05},
        ),
        ([("d1", "A", 0.8)], [("s1", "A", 0.0)], 0.5, {"A": 0.4}),  # a zero top adds nothing
        ([("d1", "A", 0.8), ("d2", "A", 0.3)], [], 0.0, {"A": 0.8}),  # best child per parent
    ],
)
def test_fused_scores(dense: Hits, sparse: Hits, share: float, expected: dict[str, float]) -> None:
    assert fused_scores(ranked(dense), ranked(sparse), share) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("dense", "sparse", "order", "agreement"),
    [
        ([], [], [], 0.0),
        ([("d1", "A", 0.9), ("d2", "B", 0.8)], [], ["A", "B"], 0.0),
        ([], [("s1", "B", 5.0), ("s2", "A", 3.0)], ["B", "A"], 0.0),
        # close cosines: the sparse top moves B ahead of A
        ([("d1", "A", 0.62), ("d2", "B", 0.60)], [("s1", "B", 5.0)], ["B", "A"], 0.0),
        # a clear dense lead holds against the sparse top (the FAQ shape)
        ([("d1", "A", 0.80), ("d2", "B", 0.60)], [("s1", "B", 5.0)], ["A", "B"], 0.0),
        # a parent only BM25 found ranks by the lowest cosine plus its share
        (
            [("d1", "A", 0.50), ("d2", "B", 0.45)],
            [("s1", "C", 5.0), ("s2", "A", 1.0)],
            ["C", "A", "B"],
            0.0,
        ),
        (
            [("d1", "A", 0.9), ("d2", "A", 0.8), ("d3", "B", 0.7)],
            [("s1", "A", 2.0)],
            ["A", "B"],
            1.0,
        ),
        # equal fused scores: the dense rank decides
        ([("d1", "A", 0.5), ("d2", "B", 0.5)], [], ["A", "B"], 0.0),
    ],
)
def test_fuse_orders_parents(dense: Hits, sparse: Hits, order: list[str], agreement: float) -> None:
    fused = fuse(ranked(dense), ranked(sparse), top_parents=3)
    assert [h.payload["parent_id"] for h in fused.best] == order
    cosine = {p: s for _, p, s in reversed(dense)}
    assert [h.score for h in fused.best] == [cosine.get(p, 0.0) for p in order]
    signals = fused.signals
    assert signals["agreement"] == agreement
    assert signals["dense_top"] == (max(s for *_, s in dense) if dense else 0.0)
    assert signals["margin"] == pytest.approx(signals["fused_top"] - signals["fused_second"])
    assert signals["dense_margin"] == pytest.approx(signals["dense_top"] - signals["dense_second"])
    assert signals["top_cosine"] == (cosine.get(order[0], 0.0) if order else 0.0)


@pytest.mark.parametrize("top_parents", [0, 1, 2, 5])
def test_fuse_returns_at_most_top_parents(top_parents: int) -> None:
    dense = ranked([("d1", "A", 0.9), ("d2", "B", 0.8), ("d3", "C", 0.7)])
    assert len(fuse(dense, ranked([]), top_parents=top_parents).best) == min(top_parents, 3)


def test_fuse_keeps_the_dense_child_and_cosine_of_a_parent_both_found() -> None:
    fused = fuse(
        Ranked.of([hit("d1", "A", 0.7)], [hit("p1", "B", 0.6)]),
        Ranked.of([hit("s1", "A", 9.0), hit("s2", "B", 3.0)]),
        top_parents=1,
    )
    assert [(h.id, h.score) for h in fused.best] == [("d1", 0.7)]
    signals = fused.signals
    assert signals["top_in_both"] == 1.0 and signals["sparse_top"] == 9.0
    assert signals["sparse_ratio"] == pytest.approx(3.0 / 9.0)
    assert signals["fused_top"] == pytest.approx((1 - SPARSE_SHARE) * 0.7 + SPARSE_SHARE)


def test_the_signal_names_are_stable() -> None:
    signals = fuse(ranked([("d1", "A", 0.7)]), ranked([]), top_parents=1).signals
    assert set(signals) >= {
        "dense_top", "dense_second", "sparse_top", "sparse_second", "fused_top",
        "fused_second", "margin", "agreement", "top_in_both",
    }  # fmt: skip
