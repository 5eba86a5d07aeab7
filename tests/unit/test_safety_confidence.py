"""Confidence from the top cosine score, and the gate in front of the model."""

from __future__ import annotations

import math

import pytest

from pipelines.safety.confidence import confidence_from_score, passes_gate


@pytest.mark.parametrize(
    ("score", "confidence"),
    [
        (0.0, 0.0),
        (0.4, 40.0),
        (0.73456, 73.5),
        (0.73449, 73.4),
        (1.0, 100.0),
        (1.2, 100.0),  # clipped
        (-0.3, 0.0),  # clipped
        (math.nan, 0.0),
    ],
)
def test_confidence_from_score(score: float, confidence: float) -> None:
    assert confidence_from_score(score) == confidence


@pytest.mark.parametrize(
    ("confidence", "threshold", "passes"),
    [
        (40.0, 40.0, True),
        (39.9, 40.0, False),
        (100.0, 40.0, True),
        (0.0, 0.0, True),
        (math.nan, 0.0, False),
    ],
)
def test_passes_gate(confidence: float, threshold: float, passes: bool) -> None:
    assert passes_gate(confidence, threshold) is passes
