"""Confidence: the top dense (cosine) score as 0-100, and the gate that decides a model call.

The gate is the dense threshold, or, when a calibration was fitted (`warden eval retrieval
--calibrate`), a logistic model over the retrieval's named signals: P(the top source answers
the question), compared with the cut chosen at fit time. `confidence` itself never changes
meaning (top cosine x 100); only the decision does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def confidence_from_score(score: float) -> float:
    """Cosine x 100, clipped to 0..100, rounded to one decimal; NaN counts as 0."""
    if math.isnan(score):
        return 0.0
    return round(min(max(score * 100.0, 0.0), 100.0), 1)


def passes_gate(confidence: float, threshold: float) -> bool:
    """Whether the evidence is good enough to call a model (at or above the threshold)."""
    return not math.isnan(confidence) and confidence >= threshold


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    return float(value)


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass(frozen=True)
class GateCalibration:
    """P(top source answers) = sigmoid(bias + sum(weight * signal)); abstain below `cut`."""

    weights: Mapping[str, float]
    bias: float
    cut: float
    extra: Mapping[str, Any] = field(default_factory=dict)  # what the file records besides

    def probability(self, signals: Mapping[str, float]) -> float:
        """A missing or non-finite signal counts as 0."""
        z = self.bias
        for name, weight in self.weights.items():
            value = float(signals.get(name, 0.0))
            z += weight * (value if math.isfinite(value) else 0.0)
        return sigmoid(z)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> GateCalibration:
        weights = raw.get("weights")
        if not isinstance(weights, Mapping) or not weights:
            raise ValueError("`weights` must map signal names to numbers")
        cut = _number(raw.get("cut"), "`cut`")
        if not 0.0 <= cut <= 1.0:
            raise ValueError("`cut` must be a probability (0 to 1)")
        return cls(
            weights={str(k): _number(v, f"weight {k}") for k, v in weights.items()},
            bias=_number(raw.get("bias"), "`bias`"),
            cut=cut,
            extra={k: v for k, v in raw.items() if k not in ("weights", "bias", "cut")},
        )

    def as_dict(self) -> dict[str, Any]:
        return {**self.extra, "weights": dict(self.weights), "bias": self.bias, "cut": self.cut}


def answer_gate(
    confidence: float,
    signals: Mapping[str, float],
    threshold: float,
    calibration: GateCalibration | None = None,
) -> bool:
    """Whether a model is called: the calibrated probability at or above its cut when a
    calibration is configured, else the dense threshold. Nothing found never passes."""
    if calibration is None:
        return passes_gate(confidence, threshold)
    if math.isnan(confidence) or confidence <= 0.0:
        return False
    return calibration.probability(signals) >= calibration.cut
