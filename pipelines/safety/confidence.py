"""Confidence: the top dense (cosine) score as 0-100, and the gate that decides a model call."""

from __future__ import annotations

import math


def confidence_from_score(score: float) -> float:
    """Cosine x 100, clipped to 0..100, rounded to one decimal; NaN counts as 0."""
    if math.isnan(score):
        return 0.0
    return round(min(max(score * 100.0, 0.0), 100.0), 1)


def passes_gate(confidence: float, threshold: float) -> bool:
    """Whether the evidence is good enough to call a model (at or above the threshold)."""
    return not math.isnan(confidence) and confidence >= threshold
