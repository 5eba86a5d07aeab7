"""Hybrid ranking: reciprocal rank fusion of the dense and sparse searches, per parent (pure).

Each search (dense: cosine; sparse: BM25) ranks parents by their best child; both scopes (core
and the user's own) share one ranking per kind, as their scores are comparable. A parent's fused
score is `sum(weight / (k + rank))` over the rankings it appears in (rank from 1). The fused
hits keep the dense cosine as their score (0.0 for a parent only the sparse search found), so
sources and `confidence` still speak cosine (SPEC section 1, step 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from pipelines.ports import SearchHit
from pipelines.retrieval import parent_key

# tuned on SQuAD-shifts reddit only (bench/eval_retrieval.py --tune reddit; k 5-60 x weight
# 0.5-1.5: k hardly matters, a heavier sparse vote helps); reported on nyt, amazon and the FAQ
RRF_K = 20.0
DENSE_WEIGHT = 1.0
SPARSE_WEIGHT = 1.5


@dataclass(frozen=True)
class Ranked:
    """One kind's ranking: the best child per parent, best first."""

    hits: tuple[SearchHit, ...]

    @classmethod
    def of(cls, *scopes: Iterable[SearchHit]) -> Ranked:
        tagged = [(hit, n) for n, scope in enumerate(scopes) for hit in scope]
        tagged.sort(key=lambda pair: (-pair[0].score, pair[1], pair[0].id))  # as merge_hits
        best: dict[str, SearchHit] = {}
        for hit, _ in tagged:
            best.setdefault(parent_key(hit), hit)
        return cls(tuple(best.values()))

    def rank(self) -> dict[str, int]:
        return {parent_key(hit): n for n, hit in enumerate(self.hits, start=1)}

    def score(self, n: int) -> float:
        return self.hits[n].score if len(self.hits) > n else 0.0


@dataclass(frozen=True)
class Fusion:
    best: list[SearchHit]  # the top parents, each its best child, scored by dense cosine
    signals: Mapping[str, float]


def fuse(
    dense: Ranked,
    sparse: Ranked,
    *,
    top_parents: int,
    k: float = RRF_K,
    dense_weight: float = DENSE_WEIGHT,
    sparse_weight: float = SPARSE_WEIGHT,
) -> Fusion:
    """The top parents by fused rank, and the named signals the answer gate may use."""
    dense_rank, sparse_rank = dense.rank(), sparse.rank()
    child: dict[str, SearchHit] = {}
    for hit in (*dense.hits, *sparse.hits):  # the dense child shows the parent when it has one
        child.setdefault(parent_key(hit), hit)
    fused = {
        key: (dense_weight / (k + dense_rank[key]) if key in dense_rank else 0.0)
        + (sparse_weight / (k + sparse_rank[key]) if key in sparse_rank else 0.0)
        for key in child
    }
    order = sorted(
        child,
        key=lambda key: (-fused[key], dense_rank.get(key, len(child) + 1), child[key].id),
    )
    cosine = {parent_key(hit): hit.score for hit in dense.hits}
    best = [replace(child[key], score=cosine.get(key, 0.0)) for key in order[: max(top_parents, 0)]]
    first = order[0] if order else None
    in_both = first is not None and first in dense_rank and first in sparse_rank
    fused_top = fused[order[0]] if order else 0.0
    fused_second = fused[order[1]] if len(order) > 1 else 0.0
    agree = bool(dense.hits and sparse.hits) and (
        parent_key(dense.hits[0]) == parent_key(sparse.hits[0])
    )
    signals = {
        "dense_top": dense.score(0),
        "dense_second": dense.score(1),
        "sparse_top": sparse.score(0),
        "sparse_second": sparse.score(1),
        "fused_top": fused_top,
        "fused_second": fused_second,
        "margin": fused_top - fused_second,
        "agreement": 1.0 if agree else 0.0,
        "top_in_both": 1.0 if in_both else 0.0,
    }
    return Fusion(best, signals)
