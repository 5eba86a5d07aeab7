"""Guards: each message through the service's own classification (safety.yaml, the shipped
models and the toxicity scorer, as `warden serve` loads them), scored per route."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pipelines.deps import PipelineConfig
from pipelines.safety.classify import classify_message
from pipelines.state import ROUTE_OF
from service.evaluation.cases import ROUTES, GuardCase
from service.evaluation.metrics import confusion, precision_recall, rate


def guards_report(
    cases: Sequence[GuardCase],
    config: PipelineConfig,
    progress: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    """The summary, and under `details` the misses with their text (for the local file only)."""
    predicted, reasons = [], []
    for case in cases:
        verdict = classify_message(case.message, config.safety)
        predicted.append(ROUTE_OF[verdict.query_type])
        reasons.append(list(verdict.reasons))
        progress()
    expected = [case.expect for case in cases]
    matrix = confusion(expected, predicted, ROUTES)
    misses = [
        {"line": i + 1, "expect": e, "route": p, "reasons": r, "message": c.message}
        for i, (c, e, p, r) in enumerate(zip(cases, expected, predicted, reasons, strict=True))
        if e != p
    ]
    return {
        "kind": "guards",
        "messages": len(cases),
        "accuracy": round(rate([e == p for e, p in zip(expected, predicted, strict=True)]), 4),
        "routes": precision_recall(matrix, ROUTES),
        "confusion": {"labels": list(ROUTES), "matrix": matrix, "rows": "expected"},
        "misses": len(misses),
        "details": {"misses": misses},
    }
