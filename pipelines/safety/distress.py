"""Distress named in a message: self-harm ("end my life", "zeher kha lungi") or a harm done to
the writer ("they hit", "maara"). Such a message is never a greeting, however it is framed
("thanks, take care, I am going to end my life tonight"): a canned "you're welcome" would
be the worst reply it could get (pure)."""

from __future__ import annotations

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules


def names_crisis(prepared: Prepared, rules: SafetyRules) -> bool:
    """Self-harm or suicide named (the greeting blocks' `crisis` lists)."""
    return bool(rules.compiled.crisis.search(prepared.words))


def names_harm(prepared: Prepared, rules: SafetyRules) -> bool:
    """A harm told (the abuse blocks' `harms` lists, on each block's spelling fold)."""
    return any(p.harm.search(p.fold(prepared.words)) for p in rules.compiled.reporting)


def distress_reason(prepared: Prepared, rules: SafetyRules) -> str | None:
    """Why a greeting yields: "question.crisis", "question.harm_named", or None."""
    if names_crisis(prepared, rules):
        return "question.crisis"
    if names_harm(prepared, rules):
        return "question.harm_named"
    return None
