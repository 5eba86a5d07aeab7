"""The metric functions of `warden eval`, table-driven."""

from __future__ import annotations

import math

import pytest

from service.evaluation import metrics as m


@pytest.mark.parametrize(
    ("document", "sources", "rank"),
    [
        ("bail-basics.txt", ["/kb/bail-basics.txt", "/kb/fir.md"], 1),
        ("fir.md", ["/kb/bail-basics.txt", "/kb/FIR.md"], 2),
        ("fir.md", ["C:\\kb\\other.md", "C:\\kb\\fir.md"], 2),
        ("fir.md", ["/kb/bail-basics.txt"], None),
        ("fir.md", [], None),
    ],
)
def test_first_rank(document: str, sources: list[str], rank: int | None) -> None:
    assert m.first_rank(document, sources) == rank


RANKS: list[m.Rank] = [1, 2, None, 5]


@pytest.mark.parametrize(("k", "recall"), [(1, 0.25), (2, 0.5), (3, 0.5), (5, 0.75), (10, 0.75)])
def test_recall_at(k: int, recall: float) -> None:
    assert m.recall_at(RANKS, k) == recall


@pytest.mark.parametrize(
    ("ranks", "mrr", "ndcg5"),
    [
        ([1, 1], 1.0, 1.0),
        ([2], 0.5, 1 / math.log2(3)),
        ([None], 0.0, 0.0),
        ([6], 1 / 6, 0.0),  # found, but beyond the cut of nDCG@5
        ([], 0.0, 0.0),
        ([1, None], 0.5, 0.5),
    ],
)
def test_mrr_and_ndcg(ranks: list[m.Rank], mrr: float, ndcg5: float) -> None:
    assert m.mean_reciprocal_rank(ranks) == pytest.approx(mrr)
    assert m.ndcg_at(ranks, 5) == pytest.approx(ndcg5)


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([], 0.5, 0.0), ([3.0], 0.9, 3.0), ([1.0, 2.0, 3.0, 4.0], 0.5, 2.5), ([0.0, 10.0], 0.1, 1.0)],
)
def test_quantile(values: list[float], q: float, expected: float) -> None:
    assert m.quantile(values, q) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("values", "counts"),
    [([0.0, 4.9, 5.0, 10.0], [2, 2]), ([-1.0, 11.0], [0, 0]), ([], [0, 0])],
)
def test_histogram_includes_the_last_upper_edge(values: list[float], counts: list[int]) -> None:
    assert m.histogram(values, [0.0, 5.0, 10.0]) == counts


@pytest.mark.parametrize(
    ("inside", "outside", "threshold", "j"),
    [
        ([60.0, 70.0], [20.0, 30.0], 60.0, 1.0),  # perfectly separable: the lowest best cut
        ([50.0, 20.0], [40.0], 50.0, 0.5),
        ([10.0], [90.0], 0.0, 0.0),  # nothing helps: answer everything
    ],
)
def test_best_threshold(
    inside: list[float], outside: list[float], threshold: float, j: float
) -> None:
    best = m.best_threshold(inside, outside)
    assert (best["threshold"], best["youden_j"]) == (threshold, j)


@pytest.mark.parametrize(
    ("t", "k", "recall"), [(0.0, 1, 0.5), (50.0, 1, 0.25), (50.0, 3, 0.5), (90.0, 5, 0.0)]
)
def test_answered_recall_counts_abstentions_as_misses(t: float, k: int, recall: float) -> None:
    ranks: list[m.Rank] = [1, 1, 3, None]
    assert m.answered_recall(ranks, [40.0, 80.0, 60.0, 90.0], t, k) == recall


def test_reliability_bins_and_ece() -> None:
    rows = m.reliability([0.05, 0.15, 0.95, 1.0], [False, True, True, True], bins=10)
    assert [(r["low"], r["n"], r["observed"]) for r in rows] == [
        (0.0, 1, 0.0),
        (0.1, 1, 1.0),
        (0.9, 2, 1.0),
    ]
    assert m.expected_calibration_error(rows) == pytest.approx(
        (0.05 + 0.85 + 2 * 0.025) / 4, abs=1e-3
    )
    assert m.expected_calibration_error([]) == 0.0


@pytest.mark.parametrize(
    ("expected", "predicted", "matrix", "reject_pr"),
    [
        (["a", "b", "c"], ["a", "b", "c"], [[1, 0, 0], [0, 1, 0], [0, 0, 1]], (1.0, 1.0)),
        (["a", "a", "b"], ["a", "b", "b"], [[1, 1, 0], [0, 1, 0], [0, 0, 0]], (1.0, 0.5)),
        (["b"], ["a"], [[0, 0, 0], [1, 0, 0], [0, 0, 0]], (0.0, 0.0)),
    ],
)
def test_confusion_and_precision_recall(
    expected: list[str],
    predicted: list[str],
    matrix: list[list[int]],
    reject_pr: tuple[float, float],
) -> None:
    labels = ["a", "b", "c"]
    assert m.confusion(expected, predicted, labels) == matrix
    scores = m.precision_recall(matrix, labels)
    assert (scores["a"]["precision"], scores["a"]["recall"]) == reject_pr
