"""What makes a message more than small talk: a legal matter or a harm ("summon", "किराया",
"maara"), or a request for help ("help", "madad", "court") (pure)."""

from __future__ import annotations

from pipelines.safety.distress import names_harm
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules


def names_legal_matter(prepared: Prepared, rules: SafetyRules) -> bool:
    """A legal matter or a harm ("summon", "किराया", "maara"): never small talk for the head,
    even after a thanks."""
    legal = any(p.legal.search(p.fold(prepared.words)) for p in rules.compiled.reporting)
    return legal or names_harm(prepared, rules)


def asks_for_help(prepared: Prepared, rules: SafetyRules) -> bool:
    """A request for help or a legal word ("help", "madad", "court", "शिकायत"): a question."""
    return any(p.help.search(p.fold(prepared.words)) for p in rules.compiled.reporting)
