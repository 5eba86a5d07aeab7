"""Replays fusions over the dual searches bench/eval_hybrid.py captured (dev split only).

    PYTHONPATH=. python bench/tune_fusion.py [--cache /tmp/warden-hybrid.pkl] [--split dev]

Each candidate ranks parents from the same captured dense and sparse children (the first
`depth` of each kind); recall is of the right document, as in bench/eval_retrieval.py.
Candidates: weighted RRF (k, sparse weight, sparse depth), a convex combination of the dense
cosine and the BM25 score divided by its top (alpha = the sparse share), the same when the
sparse top is decisive only (top / second >= ratio), and RRF with a query-length weight.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import print_table  # noqa: E402
from bench.eval_hybrid import CACHE, Asked, groups, load  # noqa: E402
from bench.eval_retrieval import metrics  # noqa: E402
from pipelines.fusion import Ranked, fuse  # noqa: E402
from pipelines.ports import SearchHit  # noqa: E402
from pipelines.ports.sparse import tokens  # noqa: E402
from pipelines.retrieval import parent_key  # noqa: E402

Fuser = Callable[[Asked], list[str]]  # question -> doc ids, best first


def _kinds(a: Asked, depth: int, dense_depth: int = 15) -> tuple[Ranked, Ranked]:
    f = a.found
    return Ranked.of(f.core[:dense_depth]), Ranked.of(f.core_sparse[:depth])


def _docs(order: list[str], child: dict[str, SearchHit]) -> list[str]:
    docs = [str(child[key].payload["doc_id"]) for key in order]
    return list(dict.fromkeys(docs))[:5]


def rrf(k: float, weight: float, depth: int) -> Fuser:
    """Weighted reciprocal rank fusion (the fusion before this tuning: k 20, weight 1.5)."""

    def run(a: Asked) -> list[str]:
        dense, sparse = _kinds(a, depth)
        child = {parent_key(h): h for h in (*sparse.hits, *dense.hits)}
        d, s = dense.rank(), sparse.rank()
        score = {
            key: (1 / (k + d[key]) if key in d else 0.0)
            + (weight / (k + s[key]) if key in s else 0.0)
            for key in child
        }
        order = sorted(child, key=lambda key: (-score[key], d.get(key, len(child) + 1)))
        return _docs(order, child)

    return run


def shipped(a: Asked) -> list[str]:
    dense, sparse = _kinds(a, 15)
    best = fuse(dense, sparse, top_parents=8).best
    return list(dict.fromkeys(str(h.payload["doc_id"]) for h in best))[:5]


def length_rrf(short: float, long: float, words: int, depth: int) -> Fuser:
    def run(a: Asked) -> list[str]:
        weight = short if len(tokens(a.question.text)) <= words else long
        return rrf(20.0, weight, depth)(a)

    return run


def convex(alpha: float, depth: int, ratio: float = 0.0) -> Fuser:
    def run(a: Asked) -> list[str]:
        dense, sparse = _kinds(a, depth)
        child = {parent_key(h): h for h in (*sparse.hits, *dense.hits)}
        cos = {parent_key(h): h.score for h in dense.hits}
        top = sparse.score(0) or 1.0
        decisive = sparse.score(0) >= ratio * sparse.score(1)
        bm = {parent_key(h): h.score / top for h in sparse.hits} if decisive else {}
        floor = min(cos.values(), default=0.0)  # a parent the dense search missed
        score = {key: (1 - alpha) * cos.get(key, floor) + alpha * bm.get(key, 0.0) for key in child}
        return _docs(sorted(child, key=lambda key: -score[key]), child)

    return run


def candidates() -> dict[str, Fuser]:
    out: dict[str, Fuser] = {"dense only": rrf(20.0, 0.0, 15), "shipped": shipped}
    for depth in (15, 30, 60):
        for weight in (0.25, 0.5, 0.75, 1.0, 1.5):
            out[f"rrf k20 w{weight:g} d{depth}"] = rrf(20.0, weight, depth)
        out[f"rrf k60 w1 d{depth}"] = rrf(60.0, 1.0, depth)
        for alpha in (0.1, 0.2, 0.3, 0.4, 0.5):
            out[f"convex a{alpha:g} d{depth}"] = convex(alpha, depth)
            for ratio in (1.2, 1.5):
                out[f"convex a{alpha:g} r{ratio:g} d{depth}"] = convex(alpha, depth, ratio)
    for short, long in ((0.5, 1.0), (0.5, 1.5), (0.25, 1.0)):
        out[f"len<=5 w{short:g} else w{long:g} d30"] = length_rrf(short, long, 5, 30)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    sets = {k[0]: v for k, v in groups(load(args.cache)).items() if k[1] == args.split}
    names = sorted(sets)
    rows = []
    base = {s: metrics([a.naive["naive dense"] for a in sets[s]], _gold(sets[s])) for s in names}
    rows.append(["naive dense", *(f"{base[s]['r@3']:.3f}" for s in names), "", ""])
    for label, run in candidates().items():
        if args.only and label not in args.only:
            continue
        r3 = {s: metrics([run(a) for a in sets[s]], _gold(sets[s]))["r@3"] for s in names}
        worst = min(r3[s] - base[s]["r@3"] for s in names)
        mean = sum(r3.values()) / len(r3)
        rows.append([label, *(f"{r3[s]:.3f}" for s in names), f"{mean:.3f}", f"{worst:+.3f}"])
    print_table(["fusion", *names, "mean", "worst vs dense"], rows, f"recall@3, {args.split}")


def _gold(members: list[Asked]) -> list[str]:
    return [str(a.question.doc_id) for a in members]


if __name__ == "__main__":
    main()
