"""Per-corpus calibration, cross-fitted (bench/eval_gate.py --per-corpus).

What a deployment does with `warden eval retrieval --calibrate`: fit the gate on its own corpus
and questions. Each test corpus's in-scope and out-of-scope questions are split into two halves
(within each class, ordered by sha256 of the question text, alternately A and B); the gate is
fitted on A and reported on B, then fitted on B and reported on A, so every question is reported
once, by a gate that never saw it. Fitting is the service's own (fit_gate, cut_for, the same 3%
target). `variants` compares fitting choices by 5-fold cross-validation inside the fit halves
only: the report halves never choose anything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from bench._common import print_table
from pipelines.safety.confidence import GateCalibration, answer_gate, passes_gate
from service.evaluation.calibration import (
    TARGET_IN_SCOPE_ABSTENTION,
    Example,
    cut_for,
    fit_gate,
)

Item = tuple[str, Example]  # (question text, its example)
Gate = Callable[[Example], bool]  # True: the model is called
Counts = tuple[int, int, int, int]  # in scope abstained, in scope, out of scope abstained, out
Fitter = Callable[[list[Item]], Gate]


def _hash(salt: str, text: str) -> bytes:
    return hashlib.sha256(f"{salt}\0{text}".encode()).digest()


def folds(items: Sequence[Item], k: int, salt: str = "fold") -> list[list[Item]]:
    """k stratified folds: within each class, by hash order, round robin."""
    out: list[list[Item]] = [[] for _ in range(k)]
    for in_scope in (True, False):
        members = sorted(
            (i for i in items if i[1].in_scope == in_scope), key=lambda i: _hash(salt, i[0])
        )
        for n, item in enumerate(members):
            out[n % k].append(item)
    return out


def dense(threshold: float) -> Gate:
    return lambda e: passes_gate(e.confidence, threshold)


def calibrated(model: GateCalibration) -> Gate:
    return lambda e: answer_gate(e.confidence, e.signals, 0.0, model)


def counts(gate: Gate, examples: Sequence[Example]) -> Counts:
    inside = [not gate(e) for e in examples if e.in_scope]
    outside = [not gate(e) for e in examples if not e.in_scope]
    return sum(inside), len(inside), sum(outside), len(outside)


def pooled(parts: Sequence[Counts]) -> Counts:
    a, b, c, d = (sum(p[i] for p in parts) for i in range(4))
    return a, b, c, d


def cell(c: Counts) -> str:
    return f"{c[0] / max(c[1], 1):.1%} / {c[2] / max(c[3], 1):.1%} ({c[0]}/{c[1]}, {c[2]}/{c[3]})"


def fold_gates(fit: list[Item]) -> dict[str, tuple[Gate, str]]:
    """The gates fitted on one half: the calibrated gate and the dense threshold (<= 3%)."""
    examples = [e for _, e in fit]
    model = fit_gate(examples)
    cut = cut_for([e.confidence for e in examples if e.in_scope], TARGET_IN_SCOPE_ABSTENTION)
    return {
        "calibrated, fitted per corpus": (calibrated(model), f"cut {model.cut:.3f}"),
        "dense, fitted per corpus": (dense(cut), f"threshold {cut:.1f}"),
    }


def cross_fit(corpora: dict[str, list[Item]], fixed: dict[str, Gate]) -> None:
    """Prints, per corpus and gate, the pooled rates and each fold's."""
    rows, fold_rows = [], []
    for name, items in corpora.items():
        a, b = folds(items, 2)
        per_gate: dict[str, list[Counts]] = {}
        for fit, report, label in ((a, b, "fit A, report B"), (b, a, "fit B, report A")):
            reported = [e for _, e in report]
            gates = {**fold_gates(fit), **{k: (g, "") for k, g in fixed.items()}}
            for gate_name, (gate, note) in gates.items():
                c = counts(gate, reported)
                per_gate.setdefault(gate_name, []).append(c)
                fit_c = counts(gate, [e for _, e in fit])
                fold_rows.append([name, label, gate_name, note, cell(fit_c), cell(c)])
        for gate_name, parts in per_gate.items():
            rows.append([name, gate_name, cell(pooled(parts))])
    heads = ["corpus", "gate", "in-scope / out-of-scope abstention, pooled (abstained/asked)"]
    print_table(heads, rows, "cross-fitted per corpus: every question reported once")
    heads = ["corpus", "fold", "gate", "fitted", "fit half: in / out", "report half: in / out"]
    print_table(heads, fold_rows, "fold by fold")


def _fitter(l2: float, out_of_fold_cut: bool) -> Fitter:
    """The service's fit_gate with this L2 strength and cut rule."""

    def fit(items: list[Item]) -> Gate:
        examples = [e for _, e in items]
        return calibrated(fit_gate(examples, l2=l2, out_of_fold_cut=out_of_fold_cut))

    return fit


VARIANTS: dict[str, Fitter] = {
    "before: L2 1, in-sample cut": _fitter(1.0, False),
    "L2 10, in-sample cut": _fitter(10.0, False),
    "L2 1, lower of in-sample and out-of-fold cut": _fitter(1.0, True),
    "shipped: L2 10, lower of the two": _fitter(10.0, True),
}


def variants(corpora: dict[str, list[Item]], repeats: int = 4) -> None:
    """5-fold cross-validation (repeated with other hashes) inside each fit half."""
    rows = []
    for name, items in corpora.items():
        for half, fit in zip("AB", folds(items, 2), strict=True):
            for label, fitter in VARIANTS.items():
                parts = []
                for r in range(repeats):
                    inner = folds(fit, 5, f"cv{r}")
                    for held in inner:
                        trained = fitter([i for part in inner if part is not held for i in part])
                        parts.append(counts(trained, [e for _, e in held]))
                rows.append([name, f"fit half {half}", label, cell(pooled(parts))])
    heads = ["corpus", "inside", "fitting", "in / out abstention (5-fold CV, pooled repeats)"]
    print_table(heads, rows, "fitting choices, compared on the fit halves only")
