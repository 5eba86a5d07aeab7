"""A detector's answer: whether it fired, and the rule names that made it fire."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    flagged: bool
    reasons: tuple[str, ...] = ()

    @classmethod
    def of(cls, reasons: list[str] | tuple[str, ...]) -> Verdict:
        unique = tuple(dict.fromkeys(reasons))
        return cls(flagged=bool(unique), reasons=unique)


CLEAR = Verdict(flagged=False)
