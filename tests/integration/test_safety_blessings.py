"""A blessing or praise of the assistant is no insult, though the comment-trained insult model
(shipped with the service) reads "you" and "your" in it as one; an insult word beside it still
is (round 24)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules
from service.pipeline_config import load_safety_rules


@lru_cache(maxsize=1)
def _shipped() -> SafetyRules:
    return load_safety_rules()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("God bless you and your whole team", "greeting"),
        ("you're the best bot ever ❤️", "question"),  # no longer refused; not small talk yet
        ("god bless you, you stupid idiot", "abusive"),
        ("you are the best idiot ever", "abusive"),
    ],
)
def test_a_blessing_or_praise_is_no_insult(text: str, expected: str) -> None:
    assert classify_message(text, _shipped()).query_type == expected
