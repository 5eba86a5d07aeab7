"""Prompt templates kept as files; each carries a content hash as its version."""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

_HERE = Path(__file__).parent


class PromptError(ValueError):
    """A template was rendered with missing or unexpected placeholders."""


@dataclass(frozen=True)
class Prompt:
    name: str
    template: str

    @cached_property
    def version(self) -> str:
        return hashlib.sha256(self.template.encode()).hexdigest()[:12]

    @cached_property
    def placeholders(self) -> frozenset[str]:
        fields = (f for _, f, _, _ in string.Formatter().parse(self.template) if f)
        return frozenset(fields)

    def render(self, **values: str) -> str:
        missing = self.placeholders - values.keys()
        extra = values.keys() - self.placeholders
        if missing or extra:
            raise PromptError(f"{self.name}: missing {sorted(missing)}, unexpected {sorted(extra)}")
        return self.template.format(**values)


@cache
def load_prompt(name: str) -> Prompt:
    return Prompt(name, (_HERE / f"{name}.txt").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class PromptBook:
    """The prompts the pipeline uses, loaded once."""

    answer_system: Prompt
    answer_user: Prompt
    greeting_system: Prompt

    @classmethod
    def load(cls) -> PromptBook:
        return cls(
            answer_system=load_prompt("answer_system"),
            answer_user=load_prompt("answer_user"),
            greeting_system=load_prompt("greeting_system"),
        )

    def versions(self) -> dict[str, str]:
        return {
            p.name: p.version for p in (self.answer_system, self.answer_user, self.greeting_system)
        }
