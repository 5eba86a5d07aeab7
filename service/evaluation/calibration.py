"""The calibrated gate: a logistic regression of P(the knowledge base answers the question) on
the retrieval's named signals (pipelines/coverage.gate_signals), and the cut that keeps in-scope
abstention at or under a target.

The label is "in scope", not "the top source is the right document": on the dev splits of
bench/eval_gate.py (fitted with L2 1 and the in-sample cut) the in-scope label abstained on 90.5%
of out-of-scope questions at the same 2.9% in-scope abstention, the top-source label on 61.4%
(it counts an answerable question whose right passage ranks second as a miss, and the cut must
then sit low to keep it).

Pure numpy (Newton's method with an L2 penalty on standardised signals); the coefficients are
folded back onto the raw signals, so the gate needs only plain numbers.

The cut is the lower of two: the one that keeps the fit's own in-scope questions at the target,
and the one that keeps them there out of fold (each question scored by a model fitted without
it, `CUT_FOLDS` folds). The first alone is optimistic: the fit has seen the questions it cuts
on, and on new questions it abstained more than the target. Both choices (the out-of-fold cut,
L2 10 rather than 1) were made by cross-validation inside the fit halves of
`bench/eval_gate.py --per-corpus` (see the README): in-scope abstention closer to the target on
every corpus, and on the two SQuAD-shifts corpora more out-of-scope questions abstained than
with L2 1. It costs a few points of out-of-scope abstention against the in-sample cut there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from pipelines.safety.confidence import GateCalibration, answer_gate

TARGET_IN_SCOPE_ABSTENTION = 0.03
HOLDOUT_EVERY = 3  # within each class, every third question is held out of the fit
L2 = 10.0  # the penalty on the standardised signals
CUT_FOLDS = 5  # out-of-fold scores for the cut (fewer when a class has fewer questions)


@dataclass(frozen=True)
class Example:
    signals: Mapping[str, float]
    correct: bool  # the top source is the right document (always False out of scope)
    in_scope: bool
    confidence: float = 100.0  # top cosine x 100 (the calibrated gate never answers at 0)


def split(examples: Sequence[Example]) -> tuple[list[int], list[int]]:
    """Deterministic, stratified: (fit indices, held-out indices)."""
    fit: list[int] = []
    held: list[int] = []
    for in_scope in (True, False):
        members = [i for i, e in enumerate(examples) if e.in_scope == in_scope]
        for position, i in enumerate(members):
            (held if position % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else fit).append(i)
    return sorted(fit), sorted(held)


def fit_logistic(
    rows: Sequence[Sequence[float]], labels: Sequence[bool], l2: float = 1.0, steps: int = 50
) -> tuple[list[float], float]:
    """Weights and bias on the raw features."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    beta = np.zeros(z.shape[1])
    penalty = np.eye(z.shape[1]) * l2
    penalty[0, 0] = 0.0  # the bias is not penalised
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -30, 30)))
        gradient = z.T @ (p - y) + penalty @ beta
        hessian = (z.T * (p * (1 - p))) @ z + penalty + np.eye(z.shape[1]) * 1e-9
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    weights = beta[1:] / scale
    bias = float(beta[0] - np.sum(beta[1:] * mean / scale))
    return [float(w) for w in weights], bias


def cut_for(probabilities: Sequence[float], target: float) -> float:
    """The highest cut under which at most `target` of these (in-scope) probabilities fall."""
    if not probabilities:
        return 0.0
    ordered = sorted(probabilities)
    allowed = math.floor(target * len(ordered) + 1e-9)
    return ordered[allowed] if allowed < len(ordered) else ordered[-1]


def folds(examples: Sequence[Example], k: int) -> list[list[int]]:
    """k stratified folds (indices): within each class, dealt round robin in order."""
    out: list[list[int]] = [[] for _ in range(k)]
    for in_scope in (True, False):
        members = [i for i, e in enumerate(examples) if e.in_scope == in_scope]
        for position, i in enumerate(members):
            out[position % k].append(i)
    return out


def _model(examples: Sequence[Example], names: Sequence[str], l2: float) -> GateCalibration:
    rows = [[float(e.signals.get(n, 0.0)) for n in names] for e in examples]
    weights, bias = fit_logistic(rows, [e.in_scope for e in examples], l2=l2)
    return GateCalibration(dict(zip(names, weights, strict=True)), bias, cut=0.0)


def out_of_fold(examples: Sequence[Example], names: Sequence[str], l2: float) -> list[float]:
    """Each in-scope question's probability under a model fitted without its fold; empty when
    a class has fewer than two questions (no fold would leave both classes to fit on)."""
    k = min(CUT_FOLDS, *(sum(e.in_scope == c for e in examples) for c in (True, False)))
    if k < 2:
        return []
    scored = []
    for held in folds(examples, k):
        out = set(held)
        model = _model([e for i, e in enumerate(examples) if i not in out], names, l2)
        scored += [model.probability(examples[i].signals) for i in held if examples[i].in_scope]
    return scored


def fit_gate(
    examples: Sequence[Example],
    target: float = TARGET_IN_SCOPE_ABSTENTION,
    *,
    l2: float = L2,
    out_of_fold_cut: bool = True,
) -> GateCalibration:
    names = sorted({name for e in examples for name in e.signals})
    if not names:
        raise ValueError("the retrieval records no signals to fit on")
    if len({e.in_scope for e in examples}) < 2:
        raise ValueError("fitting needs both in-scope and out-of-scope questions")
    model = _model(examples, names, l2)
    cut = cut_for([model.probability(e.signals) for e in examples if e.in_scope], target)
    if out_of_fold_cut and (scored := out_of_fold(examples, names, l2)):
        cut = min(cut, cut_for(scored, target))
    extra = {"kind": "logistic", "target": "the knowledge base answers the question"}
    extra["max_in_scope_abstention"] = target  # type: ignore[assignment]
    extra["l2"] = l2  # type: ignore[assignment]
    return GateCalibration(model.weights, model.bias, cut, extra)


def gate_rates(model: GateCalibration, examples: Sequence[Example]) -> dict[str, float | int]:
    """False abstentions (in scope, abstained) and false answers (out of scope, answered)."""
    passed = [answer_gate(e.confidence, e.signals, 0.0, model) for e in examples]
    inside = [not ok for ok, e in zip(passed, examples, strict=True) if e.in_scope]
    outside = [ok for ok, e in zip(passed, examples, strict=True) if not e.in_scope]
    return {
        "in_scope": len(inside),
        "out_of_scope": len(outside),
        "in_scope_abstention": round(sum(inside) / len(inside), 4) if inside else 0.0,
        "out_of_scope_answered": round(sum(outside) / len(outside), 4) if outside else 0.0,
    }
