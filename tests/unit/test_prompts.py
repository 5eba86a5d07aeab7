"""Every prompt file renders with exactly the placeholders the pipeline fills in."""

from __future__ import annotations

import pytest

from prompts import Prompt, PromptBook, PromptError

# What the nodes pass to each prompt (pipelines/nodes/greet.py, generate.py).
EXPECTED = {
    "answer_system": {"user_name"},
    "answer_user": {"context", "question"},
    "greeting_system": {"user_name"},
}


def _prompts() -> dict[str, Prompt]:
    book = PromptBook.load()
    return {p.name: p for p in (book.answer_system, book.answer_user, book.greeting_system)}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_prompt_has_exactly_the_expected_placeholders(name: str) -> None:
    assert _prompts()[name].placeholders == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_prompt_renders_every_value_and_leaves_no_brace(name: str) -> None:
    values = {key: f"<<{key.upper()}>>" for key in EXPECTED[name]}
    text = _prompts()[name].render(**values)
    for value in values.values():
        assert value in text
    assert "{" not in text and "}" not in text


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_missing_or_extra_value_is_refused(name: str) -> None:
    prompt = _prompts()[name]
    values = dict.fromkeys(EXPECTED[name], "x")
    with pytest.raises(PromptError):
        prompt.render(**values, surplus="x")
    missing = dict(values)
    missing.popitem()
    with pytest.raises(PromptError):
        prompt.render(**missing)


def test_versions_are_short_content_hashes_per_prompt() -> None:
    versions = PromptBook.load().versions()
    assert set(versions) == set(EXPECTED)
    assert all(len(v) == 12 and int(v, 16) >= 0 for v in versions.values())
