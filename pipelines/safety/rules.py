"""SafetyRules: the word lists, patterns and thresholds the safety detectors run on.

Plain values only; service/config/safety.yaml is parsed by the service and handed to
`SafetyRules.from_mapping`. Compiled regexes are built once per instance and cached on it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from pipelines.safety.compiled import CompiledRules, compile_rules
from pipelines.safety.linear import LinearTextModel
from pipelines.safety.message_models import MessageModels, MessageThresholds
from pipelines.safety.ruleset import RuleSet

# compiled rules by a digest of their sections: a process that loads the same rules again
# (every container, every test kit) compiles them once
_COMPILED: dict[str, CompiledRules] = {}
_COMPILED_KEPT = 4

__all__ = ["RuleSet", "SafetyRules"]


_SECTIONS = {
    "version", "thresholds", "abuse", "injection", "greeting", "indirect", "document",
    "mention_cues",
}  # fmt: skip


@dataclass(frozen=True)
class SafetyRules:
    abuse: Mapping[str, RuleSet] = field(default_factory=dict)  # language -> rules
    injection: Mapping[str, RuleSet] = field(default_factory=dict)
    greeting: Mapping[str, RuleSet] = field(default_factory=dict)
    # name -> regex on the "flat" form (casefolded, punctuation and line breaks kept):
    # role markers and chat-template tokens of indirect injections
    indirect: Mapping[str, str] = field(default_factory=dict)
    # name -> regex on the flat form, run only on uploaded documents (pipelines/safety/documents)
    document: Mapping[str, str] = field(default_factory=dict)
    # words that show a question is about quoted words ("what does '...' mean?")
    mention_cues: tuple[str, ...] = ()
    greeting_max_chars: int = 60
    greeting_max_words: int = 8
    # a greeting with closing remarks ("thanks, i will go to the police station tomorrow")
    greeting_closing_max_chars: int = 130
    greeting_closing_max_words: int = 20
    standalone_insult_max_words: int = 8
    toxicity_threshold: float = 0.9
    encoded_min_base64_chars: int = 16
    encoded_min_hex_chars: int = 16
    encoded_max_depth: int = 2
    obfuscated_max_chars: int = 2000  # ROT13, reversed and split-letter text: read this much
    injection_min_signals: int = 2
    # a quoted attack longer than this (or of several sentences) is pasted text, not a mention
    mention_max_words: int = 12
    insult_model_threshold: float = 0.5
    injection_model_threshold: float = 0.5
    injection_model_min_words: int = 20
    # the message models (pipelines/safety/message_models.py); 1.0 turns a head off
    message_insult_threshold: float = 0.85
    message_injection_threshold: float = 0.85
    message_social_threshold: float = 0.75
    message_injection_unaddressed_threshold: float = 0.95
    message_social_question_threshold: float = 0.9
    message_social_thanks_threshold: float = 0.9
    message_social_unaddressed_threshold: float = 0.95
    message_models_max_words: int = 150
    message_models_min_words: int = 3
    message_social_min_words: int = 2
    message_social_max_words: int = 30
    # Optional text -> probability-of-toxic hook, consulted only when the rules cannot decide.
    toxicity_scorer: Callable[[str], float] | None = field(default=None, compare=False)
    # The shipped linear models (service/config/models/), consulted when no rule decides.
    insult_model: LinearTextModel | None = field(default=None, compare=False)
    injection_model: LinearTextModel | None = field(default=None, compare=False)
    message_models: MessageModels | None = field(default=None, compare=False)

    @cached_property
    def compiled(self) -> CompiledRules:
        """The regexes and vocabularies, built on first use; rules loaded again with the same
        sections share them (compiling takes seconds)."""
        sections = (
            self.abuse, self.injection, self.greeting, self.indirect, self.mention_cues,
            self.document,
        )  # fmt: skip
        key = hashlib.sha256(repr(sections).encode()).hexdigest()
        found = _COMPILED.get(key)
        if found is None:
            found = compile_rules(*sections)
            if len(_COMPILED) >= _COMPILED_KEPT:
                del _COMPILED[next(iter(_COMPILED))]
            _COMPILED[key] = found
        return found

    def with_toxicity_scorer(self, scorer: Callable[[str], float] | None) -> SafetyRules:
        """The same rules with a scorer plugged in; the compiled rules are shared, not rebuilt."""
        return self.plugged(toxicity_scorer=scorer)

    def with_models(
        self, insult: LinearTextModel | None, injection: LinearTextModel | None
    ) -> SafetyRules:
        """The same rules with the linear models plugged in (None: that model is off)."""
        return self.plugged(insult_model=insult, injection_model=injection)

    @cached_property  # read several times a message; a copy (`plugged`) computes its own
    def message_thresholds(self) -> MessageThresholds:
        return MessageThresholds(
            self.message_insult_threshold,
            self.message_injection_threshold,
            self.message_social_threshold,
            self.message_injection_unaddressed_threshold,
            self.message_social_question_threshold,
            self.message_social_thanks_threshold,
            self.message_social_unaddressed_threshold,
            self.message_models_max_words,
            self.message_models_min_words,
            self.message_social_min_words,
            self.message_social_max_words,
        )

    def plugged(self, **hooks: Any) -> SafetyRules:
        """A copy with scorers, models or thresholds replaced; the compiled rules are shared,
        not rebuilt, so nothing they are compiled from may change."""
        compiled_from = {"abuse", "injection", "greeting", "indirect", "document", "mention_cues"}
        if compiled_from & hooks.keys():
            raise ValueError(f"plugged() cannot change {sorted(compiled_from & hooks.keys())}")
        copy = replace(self, **hooks)
        copy.__dict__["compiled"] = self.compiled
        return copy

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SafetyRules:
        """Builds rules from a parsed safety.yaml; raises ValueError naming a bad entry."""
        _keys(data, _SECTIONS, "")
        thresholds = _mapping(data.get("thresholds") or {}, "thresholds")
        allowed = {f.name for f in fields(cls) if f.type in ("int", "float")}
        _keys(thresholds, allowed, "thresholds.")
        numbers: dict[str, Any] = {}
        for name, value in thresholds.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"thresholds.{name} must be a number")
            numbers[name] = value
        rules = cls(
            abuse=_languages(data.get("abuse") or {}, "abuse"),
            injection=_languages(data.get("injection") or {}, "injection"),
            greeting=_languages(data.get("greeting") or {}, "greeting"),
            indirect=_patterns(data.get("indirect") or {}, "indirect"),
            document=_patterns(data.get("document") or {}, "document"),
            mention_cues=_strings(data.get("mention_cues") or [], "mention_cues"),
            **numbers,
        )
        rules.compiled  # noqa: B018 - compile now so a bad pattern fails at load time
        return rules


def _keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise ValueError(f"unknown safety setting(s): {', '.join(where + k for k in unknown)}")


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where} must be a list of strings")
    return tuple(v for v in value if v.strip())


def _patterns(value: Any, where: str) -> dict[str, str]:
    patterns = _mapping(value, where)
    for name, regex in patterns.items():
        if not isinstance(regex, str) or not regex.strip():
            raise ValueError(f"{where}.{name} must be a non-empty regex string")
    return {str(name): regex for name, regex in patterns.items()}


def _steps(value: Any, where: str) -> dict[str, str]:
    """A fold's steps (regex -> replacement, in order) or a word map (word -> words)."""
    return {str(k): str(v) for k, v in _mapping(value or {}, where).items()}


def _languages(value: Any, where: str) -> dict[str, RuleSet]:
    result: dict[str, RuleSet] = {}
    for language, block in _mapping(value, where).items():
        here = f"{where}.{language}"
        block = _mapping(block, here)
        parts = {"lists", "phrases", "patterns", "bare_patterns", "signals", "spares"}
        parts |= {"spelling", "shorthand"}
        _keys(block, parts, here + ".")
        lists = _mapping(block.get("lists") or {}, here + ".lists")
        result[str(language)] = RuleSet(
            lists={str(k): _strings(v, f"{here}.lists.{k}") for k, v in lists.items()},
            phrases=_strings(block.get("phrases") or [], here + ".phrases"),
            patterns=_patterns(block.get("patterns") or {}, here + ".patterns"),
            bare_patterns=_patterns(block.get("bare_patterns") or {}, here + ".bare_patterns"),
            signals=_patterns(block.get("signals") or {}, here + ".signals"),
            spares=_patterns(block.get("spares") or {}, here + ".spares"),
            spelling=_steps(block.get("spelling"), here),
            shorthand=_steps(block.get("shorthand"), here),
        )
    return result
