"""Rules loaded again with the same sections share their compiled regexes; changed ones do not."""

from __future__ import annotations

from dataclasses import replace

from pipelines.safety.rules import SafetyRules
from service.pipeline_config import load_safety_rules


def test_the_same_rules_loaded_twice_share_their_compiled_form() -> None:
    first, second = load_safety_rules(models=False), load_safety_rules(models=False)
    assert first is not second
    assert first.compiled is second.compiled


def test_changed_sections_are_compiled_anew() -> None:
    shipped = load_safety_rules(models=False)
    changed: SafetyRules = replace(shipped, mention_cues=frozenset({"cuexyq"}))
    assert changed.compiled is not shipped.compiled
    assert "cuexyq" in changed.compiled.mention_cues
