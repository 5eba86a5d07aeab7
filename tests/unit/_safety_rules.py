"""The shipped safety rules, loaded as the service loads them: yaml.safe_load, from_mapping."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules

SHIPPED_YAML = Path(__file__).resolve().parents[2] / "service" / "config" / "safety.yaml"


def shipped_mapping() -> dict[str, Any]:
    loaded = yaml.safe_load(SHIPPED_YAML.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@lru_cache(maxsize=1)
def shipped_rules() -> SafetyRules:
    return SafetyRules.from_mapping(shipped_mapping())


def assert_routed(text: str, route: str, reason: str | None = None) -> None:
    """The shipped rules send `text` to `route` (and name `reason` among their reasons)."""
    decided = classify_message(text, shipped_rules())
    assert decided.query_type == route, decided
    assert reason is None or reason in decided.reasons, decided
