"""Pure metric functions over plain numbers (table-driven tests in tests/unit)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

Rank = int | None  # 1-based position of the right document among the sources; None: absent


def same_document(source: str, document: str) -> bool:
    """A source (a path or a name) is the document when their file names agree."""
    return PurePath(source.replace("\\", "/")).name.lower() == document.strip().lower()


def first_rank(document: str, sources: Sequence[str]) -> Rank:
    return next((i for i, s in enumerate(sources, 1) if same_document(s, document)), None)


def recall_at(ranks: Sequence[Rank], k: int) -> float:
    """Share of questions whose document is among the first k sources."""
    return rate([r is not None and r <= k for r in ranks])


def mean_reciprocal_rank(ranks: Sequence[Rank]) -> float:
    return sum(1.0 / r for r in ranks if r is not None) / len(ranks) if ranks else 0.0


def ndcg_at(ranks: Sequence[Rank], k: int) -> float:
    """One relevant document per question, so the ideal DCG is 1: DCG = 1 / log2(rank + 1)."""
    gains = [1.0 / math.log2(r + 1) if r is not None and r <= k else 0.0 for r in ranks]
    return sum(gains) / len(gains) if gains else 0.0


def rate(flags: Sequence[bool]) -> float:
    return sum(1 for f in flags if f) / len(flags) if flags else 0.0


def quantile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts per bin [edge_i, edge_i+1); the last bin includes its upper edge."""
    counts = [0] * (len(edges) - 1)
    for value in values:
        for i in range(len(counts)):
            last = i == len(counts) - 1
            if edges[i] <= value < edges[i + 1] or (last and value == edges[i + 1]):
                counts[i] += 1
                break
    return counts


def distribution(values: Sequence[float], edges: Sequence[float]) -> dict[str, Any]:
    return {
        "n": len(values),
        "mean": round(sum(values) / len(values), 3) if values else 0.0,
        **{f"p{q}": round(quantile(values, q / 100), 3) for q in (10, 50, 90)},
        "histogram": {"edges": list(edges), "counts": histogram(values, edges)},
    }


def abstention(values: Sequence[float], threshold: float) -> float:
    """Share of values below the threshold (those the gate would not answer)."""
    return rate([v < threshold for v in values])


def best_threshold(in_scope: Sequence[float], out_of_scope: Sequence[float]) -> dict[str, float]:
    """The threshold (answer at or above it) that best separates the classes: the largest
    share of in-scope answered minus out-of-scope answered (Youden's J); ties: the lowest."""
    candidates = sorted({*in_scope, *out_of_scope, 0.0})
    best = (-2.0, 0.0)
    for t in candidates:
        j = (1 - abstention(in_scope, t)) - (1 - abstention(out_of_scope, t))
        if j > best[0] + 1e-12:
            best = (j, t)
    j, t = best
    return {
        "threshold": t,
        "in_scope_abstention": round(abstention(in_scope, t), 4),
        "out_of_scope_abstention": round(abstention(out_of_scope, t), 4),
        "youden_j": round(j, 4),
    }


def answered_recall(ranks: Sequence[Rank], values: Sequence[float], t: float, k: int) -> float:
    """recall@k when questions whose value is below t are abstained (counted as misses)."""
    return rate([r is not None and r <= k and v >= t for r, v in zip(ranks, values, strict=True)])


def reliability(
    probabilities: Sequence[float], outcomes: Sequence[bool], bins: int = 10
) -> list[dict[str, float]]:
    """Per probability bin: how many, their mean probability and the observed frequency."""
    rows = []
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        inside = [
            (p, o)
            for p, o in zip(probabilities, outcomes, strict=True)
            if lo <= p < hi or (i == bins - 1 and p == hi)
        ]
        if inside:
            rows.append(
                {
                    "low": lo,
                    "high": hi,
                    "n": len(inside),
                    "mean_probability": round(sum(p for p, _ in inside) / len(inside), 4),
                    "observed": round(rate([o for _, o in inside]), 4),
                }
            )
    return rows


def expected_calibration_error(rows: Sequence[dict[str, float]]) -> float:
    total = sum(r["n"] for r in rows)
    gaps = sum(r["n"] * abs(r["mean_probability"] - r["observed"]) for r in rows)
    return round(gaps / total, 4) if total else 0.0


def confusion(
    expected: Sequence[str], predicted: Sequence[str], labels: Sequence[str]
) -> list[list[int]]:
    """matrix[i][j]: how many of label i were predicted as label j."""
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for e, p in zip(expected, predicted, strict=True):
        matrix[index[e]][index[p]] += 1
    return matrix


def precision_recall(matrix: Sequence[Sequence[int]], labels: Sequence[str]) -> dict[str, Any]:
    """Per label: precision (of what was predicted as it), recall (of what it was), support."""
    out = {}
    for i, label in enumerate(labels):
        predicted = sum(row[i] for row in matrix)
        actual = sum(matrix[i])
        out[label] = {
            "precision": round(matrix[i][i] / predicted, 4) if predicted else 0.0,
            "recall": round(matrix[i][i] / actual, 4) if actual else 0.0,
            "support": actual,
        }
    return out
