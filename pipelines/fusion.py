"""Hybrid ranking: a convex combination of the dense cosine and the relative BM25 score, per
parent (pure).

Each search (dense: cosine; sparse: BM25) ranks parents by their best child; both scopes (core
and the user's own) share one ranking per kind, as their scores are comparable. A parent's fused
score is `(1 - s) * cosine + s * bm25 / top_bm25`, with `s` the sparse share: the dense search
leads, and BM25 moves parents whose cosines are close (an exact term, a name, a number). A parent
only the sparse search found takes the lowest cosine the dense search returned. The fused hits
keep the dense cosine as their score (0.0 for a parent only the sparse search found), so sources
and `confidence` still speak cosine (SPEC section 1, step 5).

Tuned on dev splits only (bench/tune_fusion.py over bench/eval_hybrid.py's capture: SQuAD-shifts
reddit, half of the Python FAQ, half of the Debian FAQ, the sample knowledge base): weighted RRF
(k 20/60, sparse weight 0.25-1.5, sparse depth 15-60), this combination (share 0.03-0.5, depth
15-60, sparse counted only when its top is decisive) and a query-length weight were compared;
share 0.1 at depth 15 was best on average and the only one losing on no dev set to dense alone.
Weighted RRF (weight 1.5) had cost 8 points of recall@3 on FAQ-style data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from pipelines.ports import SearchHit
from pipelines.retrieval import parent_key

SPARSE_SHARE = 0.1


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


def fused_scores(dense: Ranked, sparse: Ranked, share: float) -> dict[str, float]:
    """Per parent: `(1 - share) * cosine + share * bm25 / top_bm25` (see the module)."""
    cosine = {parent_key(hit): hit.score for hit in dense.hits}
    floor = min(cosine.values(), default=0.0)
    top = sparse.score(0)
    relative = {parent_key(hit): hit.score / top for hit in sparse.hits} if top > 0 else {}
    return {
        key: (1.0 - share) * cosine.get(key, floor) + share * relative.get(key, 0.0)
        for key in (*cosine, *relative)
    }


def fuse(
    dense: Ranked, sparse: Ranked, *, top_parents: int, sparse_share: float = SPARSE_SHARE
) -> Fusion:
    """The top parents by fused score, and the named signals the answer gate may use."""
    dense_rank, sparse_rank = dense.rank(), sparse.rank()
    child: dict[str, SearchHit] = {}
    for hit in (*dense.hits, *sparse.hits):  # the dense child shows the parent when it has one
        child.setdefault(parent_key(hit), hit)
    fused = fused_scores(dense, sparse, sparse_share)
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
        "dense_margin": dense.score(0) - dense.score(1),
        "top_cosine": cosine.get(first, 0.0) if first is not None else 0.0,  # the fused top's
        "sparse_top": sparse.score(0),
        "sparse_second": sparse.score(1),
        "sparse_ratio": sparse.score(1) / sparse.score(0) if sparse.score(0) > 0 else 0.0,
        "fused_top": fused_top,
        "fused_second": fused_second,
        "margin": fused_top - fused_second,
        "agreement": 1.0 if agree else 0.0,
        "top_in_both": 1.0 if in_both else 0.0,
    }
    return Fusion(best, signals)
