"""report.json for `warden eval retrieval`: metrics over the results, and the calibration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipelines.safety.confidence import GateCalibration
from service.evaluation import calibration as fit
from service.evaluation import metrics as m
from service.evaluation.retrieval import QuestionResult

EDGES = [float(e) for e in range(0, 101, 5)]  # confidence histogram bins (0-100)
KS = (1, 3, 5)


def examples(results: Sequence[QuestionResult]) -> list[fit.Example]:
    """What the gate can be fitted on: the questions the service searched for."""
    return [
        fit.Example(r.signals, r.correct, r.case.in_scope, r.confidence)
        for r in results
        if r.route == "question" and r.error is None
    ]


def calibrate(results: Sequence[QuestionResult]) -> tuple[GateCalibration, dict[str, Any]]:
    """Fits on two thirds of each class; the rates are reported on both parts."""
    every = examples(results)
    fit_part, held_part = fit.split(every)
    model = fit.fit_gate([every[i] for i in fit_part])
    section = {
        "signals": sorted(model.weights),
        "cut": round(model.cut, 4),
        "fit": fit.gate_rates(model, [every[i] for i in fit_part]),
        "holdout": fit.gate_rates(model, [every[i] for i in held_part]),
    }
    recorded = {**model.extra, "fitted_on": {"fit": section["fit"], "holdout": section["holdout"]}}
    return GateCalibration(model.weights, model.bias, model.cut, recorded), section


def probabilities(results: Sequence[QuestionResult], model: GateCalibration | None) -> list[float]:
    """P(the knowledge base answers): the calibrated model's when there is one, else
    confidence/100."""
    if model is None:
        return [r.confidence / 100 for r in results]
    return [model.probability(r.signals) for r in results]


def retrieval_report(
    results: Sequence[QuestionResult],
    threshold: float,
    model: GateCalibration | None,
    *,
    calibrated_gate: bool,
) -> dict[str, Any]:
    """`model`: the calibration for the reliability diagram (fitted now, or loaded);
    `calibrated_gate`: whether the gate that ran was a loaded calibration."""
    inside = [r for r in results if r.case.in_scope]
    outside = [r for r in results if not r.case.in_scope]
    ranks = [r.rank for r in inside]
    conf_in, conf_out = [r.confidence for r in inside], [r.confidence for r in outside]
    passages = [r.passage_found for r in inside if r.passage_found is not None]
    probs = probabilities(results, model)
    # the calibrated probability predicts "in scope"; confidence / 100 is read as "top right"
    outcome = [r.case.in_scope if model is not None else r.correct for r in results]
    rows = m.reliability(probs, outcome)
    return {
        "kind": "retrieval",
        "questions": len(results),
        "in_scope": len(inside),
        "out_of_scope": len(outside),
        "not_searched": {  # classified as greeting or reject: the service would not search
            "in_scope": sum(r.route != "question" for r in inside),
            "out_of_scope": sum(r.route != "question" for r in outside),
        },
        "errors": sum(r.error is not None for r in results),
        "retrieval": {
            **{f"recall@{k}": round(m.recall_at(ranks, k), 4) for k in KS},
            "mrr": round(m.mean_reciprocal_rank(ranks), 4),
            "ndcg@5": round(m.ndcg_at(ranks, 5), 4),
            "passage_in_context@3": round(m.rate(passages), 4) if passages else None,
        },
        "gate": {
            "kind": "calibrated" if calibrated_gate else "threshold",
            "in_scope_abstention": round(m.rate([not r.answered for r in inside]), 4),
            "out_of_scope_abstention": round(m.rate([not r.answered for r in outside]), 4),
        },
        "threshold": {
            "value": threshold,
            "in_scope_abstention": round(m.abstention(conf_in, threshold), 4),
            "out_of_scope_abstention": round(m.abstention(conf_out, threshold), 4),
        },
        "best_threshold": m.best_threshold(conf_in, conf_out),
        "confidence": {
            "in_scope": m.distribution(conf_in, EDGES),
            "out_of_scope": m.distribution(conf_out, EDGES),
        },
        "reliability": {
            "probability": "calibrated" if model is not None else "confidence / 100",
            "outcome": "in scope" if model is not None else "top source right",
            "bins": rows,
            "ece": m.expected_calibration_error(rows),
        },
        "calibration": None,
        "details": {"questions": [_detail(r, p) for r, p in zip(results, probs, strict=True)]},
    }


def _detail(r: QuestionResult, probability: float) -> dict[str, Any]:
    return {
        "question": r.case.question,
        "document": r.case.document,
        "route": r.route,
        "rank": r.rank,
        "confidence": r.confidence,
        "probability": round(probability, 4),
        "answered": r.answered,
        "sources": list(r.sources),
        "signals": {k: round(v, 4) for k, v in r.signals.items()},
    }
