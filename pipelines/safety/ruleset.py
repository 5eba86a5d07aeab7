"""RuleSet: one language's word lists, phrases and patterns for one detector (plain values)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RuleSet:
    """One language's rules for one detector.

    `lists` are named word lists (multi-word entries allowed); a pattern may refer to a list
    as `{name}`, which expands to a whole-word alternation. `phrases` always match (whole
    words, after normalisation). `patterns` are named regexes run on the normalised word
    form (lowercase words separated by single spaces, accents and punctuation removed).
    """

    lists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    phrases: tuple[str, ...] = ()
    patterns: Mapping[str, str] = field(default_factory=dict)
    # abuse: patterns that count only in a short message that asks nothing; greeting: closing
    # remarks that count only next to a greeting phrase ("thanks, i will go to the police")
    bare_patterns: Mapping[str, str] = field(default_factory=dict)
    # injection only: jailbreak signals, weak alone; `injection_min_signals` distinct ones flag
    signals: Mapping[str, str] = field(default_factory=dict)
    # abuse only: a negated or self-directed insult, praise ("not an idiot", "like I'm an
    # idiot", "you are a genius"): the rules decide these words, the learned scorers never
    # see them (pipelines/safety/learned.py cuts them out of what they are shown)
    spares: Mapping[str, str] = field(default_factory=dict)
    # regex -> replacement, in order: the block's spelling fold (pipelines/safety/spelling.py),
    # applied to the clauses this block's rules see and to its own entries and patterns
    spelling: Mapping[str, str] = field(default_factory=dict)
    # greeting only: chat shorthand, word -> the words it stands for ("ur" -> "your"), put
    # for them in the message before every greeting fold (the entries are not rewritten)
    shorthand: Mapping[str, str] = field(default_factory=dict)
