"""The answer gate on the captured dev/test questions (bench/eval_hybrid.py capture).

    PYTHONPATH=. python bench/eval_gate.py [--cache /tmp/warden-hybrid.pkl] [--write PATH]

Signals are replayed with the shipped fusion (pipelines/fusion.py defaults) over the dual
search as the node sees it (core_limit children per kind), plus the coverage of the masked
question by the fused top parent (pipelines/coverage.gate_signals, the node's own definition).
The calibrated gate (service/evaluation/calibration.fit_gate: logistic regression of "the
knowledge base answers the question", cut at <= 3% in-scope abstention) is fitted on every dev
question (reddit, Python FAQ and Debian FAQ dev halves, the sample knowledge base; out of scope:
other sets' dev questions and the sample file's own), and measured on the test splits (nyt,
amazon, the FAQ test halves; out of scope: other sets' test questions). Baselines: the dense
threshold 40 (the service default) and the dense threshold fitted on dev the same way (<= 3%).
`--write` stores the fitted gate as a calibration.json. `--per-corpus`: the gate fitted on each
test corpus's own questions, cross-fitted over two halves (bench/_gate_folds.py), against the
dense threshold fitted the same way, the dev-fitted gate and the threshold 40.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import _gate_folds  # noqa: E402
from bench._common import print_table  # noqa: E402
from bench.eval_hybrid import CACHE, Asked, load  # noqa: E402
from pipelines.coverage import gate_signals  # noqa: E402
from pipelines.deps import PipelineConfig  # noqa: E402
from pipelines.fusion import Ranked, fuse  # noqa: E402
from pipelines.safety.confidence import GateCalibration, passes_gate  # noqa: E402
from service.evaluation.calibration import (  # noqa: E402
    TARGET_IN_SCOPE_ABSTENTION,
    Example,
    cut_for,
    fit_gate,
)

LIMIT = PipelineConfig().core_limit


def example(a: Asked) -> Example:
    f = a.found
    fusion = fuse(Ranked.of(f.core[:LIMIT]), Ranked.of(f.core_sparse[:LIMIT]), top_parents=1)
    top = str(fusion.best[0].payload["doc_id"]) if fusion.best else None
    in_scope = a.question.doc_id is not None
    signals = gate_signals(fusion, a.search_text or a.question.text)
    return Example(signals, in_scope and top == a.question.doc_id, in_scope, a.confidence)


def rates(answered: list[bool], examples: list[Example]) -> tuple[int, int, float, float]:
    inside = [not ok for ok, e in zip(answered, examples, strict=True) if e.in_scope]
    outside = [not ok for ok, e in zip(answered, examples, strict=True) if not e.in_scope]
    return (len(inside), len(outside), sum(inside) / max(len(inside), 1),
            sum(outside) / max(len(outside), 1))  # fmt: skip


def gate(model: GateCalibration | None, threshold: float, e: Example) -> bool:
    if model is None:
        return passes_gate(e.confidence, threshold)
    return e.confidence > 0 and model.probability(e.signals) >= model.cut


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--signals", nargs="*", default=[], help="fit on these signals only")
    parser.add_argument("--write", type=Path, help="write the fitted calibration here")
    parser.add_argument("--per-corpus", action="store_true", help="fit per test corpus, 2 folds")
    args = parser.parse_args()
    asked = load(args.cache)
    by: dict[tuple[str, str], list[Example]] = {}
    texts: dict[str, list[_gate_folds.Item]] = {}
    for a in asked:
        e = example(a)
        if args.signals:
            e = Example({k: e.signals[k] for k in args.signals}, e.correct, e.in_scope,
                        e.confidence)  # fmt: skip
        by.setdefault((a.corpus, a.question.split), []).append(e)
        if a.question.split == "test":
            texts.setdefault(a.corpus, []).append((a.question.text, e))
    dev = [e for (_, split), es in by.items() if split == "dev" for e in es]
    model = fit_gate(dev)
    dense_cut = cut_for([e.confidence for e in dev if e.in_scope], TARGET_IN_SCOPE_ABSTENTION)
    gates = {"dense 40": (None, 40.0), f"dense {dense_cut:g} (fit)": (None, dense_cut),
             "calibrated": (model, 0.0)}  # fmt: skip
    if args.per_corpus:
        fixed = {"calibrated, global (dev)": _gate_folds.calibrated(model),
                 f"dense {dense_cut:.1f}, global (dev)": _gate_folds.dense(dense_cut),
                 "dense 40 (default)": _gate_folds.dense(40.0)}  # fmt: skip
        _gate_folds.cross_fit(texts, fixed)
        _gate_folds.variants(texts)
        return
    rows = []
    groups = {**{f"{c} {s}": es for (c, s), es in by.items()}}
    groups["ALL dev"] = dev
    groups["ALL test"] = [e for (_, split), es in by.items() if split == "test" for e in es]
    groups["FAQs test"] = by.get(("faq", "test"), []) + by.get(("debian", "test"), [])
    for name, examples in groups.items():
        for label, (m, threshold) in gates.items():
            inside, outside, false_abstain, abstain_out = rates(
                [gate(m, threshold, e) for e in examples], examples
            )
            rows.append(
                [name, label, inside, outside, f"{false_abstain:.3f}", f"{abstain_out:.3f}"]
            )
    headers = ["split", "gate", "in", "out", "in-scope abstain", "out-of-scope abstain"]
    print_table(headers, rows, "gates (fitted on ALL dev)")
    print(json.dumps(model.as_dict(), indent=1))
    if args.write:
        fitted = {**model.as_dict(), "fitted_on": "bench/eval_gate.py: dev splits (README)"}
        args.write.write_text(json.dumps(fitted, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
