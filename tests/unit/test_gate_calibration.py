"""The calibrated answer gate: the pure gate function, the file format, the fit and its cut."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pipelines.coverage import gate_signals
from pipelines.fusion import Ranked, fuse
from pipelines.safety.confidence import GateCalibration, answer_gate, sigmoid
from service.evaluation.calibration import (
    L2,
    Example,
    cut_for,
    fit_gate,
    folds,
    gate_rates,
    out_of_fold,
    split,
)
from service.pipeline_config import (
    DEFAULT_CONFIG_DIR,
    calibration_path,
    gate_calibration_path,
    load_calibration,
    load_pipeline_config,
)
from service.settings import Settings

MODEL = GateCalibration({"dense_top": 10.0, "sparse_top": 2.0}, bias=-5.0, cut=0.5)


@pytest.mark.parametrize(
    ("confidence", "signals", "threshold", "calibration", "passes"),
    [
        (45.0, {}, 40.0, None, True),  # no calibration: the dense threshold decides
        (39.0, {}, 40.0, None, False),
        (math.nan, {}, 0.0, None, False),
        (
            60.0,
            {"dense_top": 0.6},
            99.0,
            MODEL,
            True,
        ),  # p = sigmoid(1) > 0.5: the threshold is moot
        (45.0, {"dense_top": 0.45}, 10.0, MODEL, False),  # p = sigmoid(-0.5) < 0.5
        (45.0, {"dense_top": 0.45, "sparse_top": 0.5}, 10.0, MODEL, True),  # p = sigmoid(0.5)
        (50.0, {"dense_top": 0.5}, 10.0, MODEL, True),  # p = 0.5, at the cut
        (0.0, {"dense_top": 0.0, "sparse_top": 9.0}, 0.0, MODEL, False),  # nothing found
        (70.0, {"dense_top": math.nan, "sparse_top": 3.0}, 0.0, MODEL, True),  # NaN counts as 0
    ],
)
def test_answer_gate(
    confidence: float,
    signals: dict[str, float],
    threshold: float,
    calibration: GateCalibration | None,
    passes: bool,
) -> None:
    assert answer_gate(confidence, signals, threshold, calibration) is passes


@pytest.mark.parametrize(
    ("signals", "probability"),
    [({}, sigmoid(-5.0)), ({"dense_top": 0.5}, 0.5), ({"other": 7.0, "dense_top": 0.5}, 0.5)],
)
def test_missing_signals_count_as_zero(signals: dict[str, float], probability: float) -> None:
    assert MODEL.probability(signals) == pytest.approx(probability)


@pytest.mark.parametrize(
    "raw",
    [
        {"bias": 0, "cut": 0.5},
        {"weights": {}, "bias": 0, "cut": 0.5},
        {"weights": {"a": "x"}, "bias": 0, "cut": 0.5},
        {"weights": {"a": 1}, "bias": None, "cut": 0.5},
        {"weights": {"a": 1}, "bias": 0, "cut": 1.5},
        {"weights": {"a": True}, "bias": 0, "cut": 0.5},
    ],
)
def test_a_malformed_calibration_is_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        GateCalibration.from_mapping(raw)


def test_the_file_round_trips_and_is_found_where_documented(tmp_path: Path) -> None:
    recorded = GateCalibration({"dense_top": 3.0}, -1.0, 0.2, {"kind": "logistic"})
    data, config = tmp_path / "data", tmp_path / "config"
    data.mkdir()
    plain = Settings(_env_file=None, data_dir=data, toxicity_classifier=False)  # type: ignore[call-arg]
    assert calibration_path(plain) == data / "calibration.json"
    assert load_pipeline_config(plain).calibration is None  # no calibration.json ships
    (data / "calibration.json").write_text(json.dumps(recorded.as_dict()))
    assert load_pipeline_config(plain).calibration == recorded
    with_dir = Settings(_env_file=None, data_dir=data, config_dir=config)  # type: ignore[call-arg]
    assert calibration_path(with_dir) == config / "calibration.json"
    shipped = DEFAULT_CONFIG_DIR / "calibration.json"  # the last fallback
    assert gate_calibration_path(with_dir) == shipped  # nothing installed in config_dir
    assert gate_calibration_path(plain) == data / "calibration.json"  # installed: it wins
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(ValueError, match="bad.json"):
        load_calibration(tmp_path / "bad.json")


@pytest.mark.parametrize(
    ("probabilities", "target", "cut"),
    [
        ([0.9, 0.1, 0.5, 0.7], 0.03, 0.1),  # 3% of 4 is 0: nobody may be abstained
        ([float(i) / 100 for i in range(100)], 0.03, 0.03),  # three fall below
        ([0.4], 0.5, 0.4),
        ([], 0.03, 0.0),
    ],
)
def test_cut_for(probabilities: list[float], target: float, cut: float) -> None:
    assert cut_for(probabilities, target) == pytest.approx(cut)
    assert sum(p < cut for p in probabilities) <= target * len(probabilities)


def _examples() -> list[Example]:
    """In scope around 0.6 (the top source right when higher), out of scope around 0.3."""
    inside = [Example({"dense_top": 0.5 + i / 100}, i > 5, True, 50 + i) for i in range(30)]
    outside = [Example({"dense_top": 0.2 + i / 100}, False, False, 20 + i) for i in range(15)]
    return inside + outside


def test_fit_separates_and_keeps_the_in_scope_abstention_target() -> None:
    model = fit_gate(_examples(), target=0.03)
    assert model.weights["dense_top"] > 0
    rates = gate_rates(model, _examples())
    assert rates["in_scope_abstention"] <= 0.03
    assert rates["out_of_scope_answered"] == 0.0
    assert model.extra["max_in_scope_abstention"] == 0.03


@pytest.mark.parametrize(
    "examples",
    [
        [Example({}, True, True), Example({}, False, False)],  # no signals
        [Example({"dense_top": 0.5}, True, True), Example({"dense_top": 0.1}, False, True)],
    ],
)
def test_fit_refuses_what_it_cannot_fit(examples: list[Example]) -> None:
    with pytest.raises(ValueError):
        fit_gate(examples)


def test_split_is_stratified_and_deterministic() -> None:
    fit, held = split(_examples())
    assert sorted(fit + held) == list(range(45)) and not set(fit) & set(held)
    assert len(held) == 10 + 5  # every third of 30 in scope and of 15 out of scope
    assert split(_examples()) == (fit, held)


def test_the_fit_predicts_in_scope_not_the_top_source() -> None:
    """Answerable questions whose right passage ranked second still count as answerable."""
    inside = [Example({"dense_top": 0.6 + i / 100}, i == 0, True) for i in range(20)]
    outside = [Example({"dense_top": 0.2 + i / 100}, False, False) for i in range(20)]
    model = fit_gate(inside + outside)
    # one question in 40 had its top source right: that label would put both far under 0.5
    assert model.probability({"dense_top": 0.65}) > 0.5  # its top source was wrong
    assert model.probability({"dense_top": 0.25}) < 0.5
    assert model.extra["target"] == "the knowledge base answers the question"


def test_the_opt_in_gate_reads_only_signals_the_node_records() -> None:
    """The gate fitted on third-party dev splits, shipped for copying (README)."""
    shipped = load_calibration(DEFAULT_CONFIG_DIR / "calibration-third-party-dev.json")
    assert shipped is not None and 0.0 < shipped.cut < 1.0
    recorded = gate_signals(fuse(Ranked.of([]), Ranked.of([]), top_parents=1), "a question")
    assert set(shipped.weights) <= set(recorded)
    assert {"coverage", "named_coverage"} <= set(shipped.weights)


@pytest.mark.parametrize(("inside", "outside", "k"), [(10, 7, 5), (3, 30, 3), (2, 2, 2), (9, 4, 4)])
def test_folds_are_stratified_and_cover_every_question_once(
    inside: int, outside: int, k: int
) -> None:
    examples = [Example({}, True, True)] * inside + [Example({}, False, False)] * outside
    parts = folds(examples, k)
    assert sorted(i for part in parts for i in part) == list(range(inside + outside))
    for in_scope, total in ((True, inside), (False, outside)):
        sizes = [sum(examples[i].in_scope == in_scope for i in part) for part in parts]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == total


def _with_outlier(inside: int = 20, outside: int = 20) -> list[Example]:
    """Separable, but for one in-scope question that scores like the out-of-scope ones and alone
    has a `quirk`: in sample the fit leans on it, out of fold it has never seen it."""
    ins = [Example({"dense_top": 0.6 + i / 100}, True, True) for i in range(inside - 1)]
    outs = [Example({"dense_top": 0.2 + i / 100}, False, False) for i in range(outside)]
    return [Example({"dense_top": 0.3, "quirk": 1.0}, True, True), *ins, *outs]


@pytest.mark.parametrize(("inside", "outside", "scored"), [(20, 20, 20), (6, 3, 6), (1, 9, 0)])
def test_out_of_fold_scores_each_in_scope_question_once(
    inside: int, outside: int, scored: int
) -> None:
    """None at all when a class has one question: no fold would leave both classes to fit on."""
    examples = _with_outlier(inside, outside)
    assert sum(e.in_scope for e in examples) == inside
    assert len(out_of_fold(examples, ["dense_top", "quirk"], L2)) == scored


def test_out_of_fold_scores_come_from_models_fitted_without_them() -> None:
    examples = _with_outlier()
    fitted = fit_gate(examples, out_of_fold_cut=False)
    in_sample = min(fitted.probability(e.signals) for e in examples if e.in_scope)
    assert min(out_of_fold(examples, ["dense_top", "quirk"], L2)) < in_sample  # the outlier, unseen


@pytest.mark.parametrize("target", [0.0, 0.05])
def test_the_cut_is_the_lower_of_in_sample_and_out_of_fold(target: float) -> None:
    examples = _with_outlier()
    optimistic = fit_gate(examples, target, out_of_fold_cut=False)
    shipped = fit_gate(examples, target)
    assert shipped.weights == optimistic.weights and shipped.cut < optimistic.cut
    assert gate_rates(shipped, examples)["in_scope_abstention"] <= target
    assert shipped.extra["l2"] == L2
