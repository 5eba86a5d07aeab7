"""The answer's model settings reach what uses them: the pipeline config (token cap, stopping
a runaway reply) and the chat-model client (sampling penalties, sent only when set)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from service.bootstrap.adapters import Closer, chat_model
from service.pipeline_config import load_pipeline_config
from service.settings import Settings


def settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path, toxicity_classifier=False, **values)  # type: ignore[call-arg,arg-type]


def test_the_token_cap_and_the_runaway_stop_reach_the_pipeline(tmp_path: Path) -> None:
    default = load_pipeline_config(settings(tmp_path))
    assert (default.answer_max_tokens, default.answer_stop_runaway) == (512, True)
    changed = load_pipeline_config(
        settings(tmp_path, answer_max_tokens=200, answer_stop_runaway=False)
    )
    assert (changed.answer_max_tokens, changed.answer_stop_runaway) == (200, False)


def test_penalties_come_from_the_environment_within_the_apis_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARDEN_LLM_FREQUENCY_PENALTY", "0.4")
    monkeypatch.setenv("WARDEN_LLM_PRESENCE_PENALTY", "-1")
    read = settings(tmp_path)
    assert (read.llm_frequency_penalty, read.llm_presence_penalty) == (0.4, -1.0)
    monkeypatch.setenv("WARDEN_LLM_FREQUENCY_PENALTY", "2.5")
    with pytest.raises(ValidationError):
        settings(tmp_path)


async def test_the_client_sends_only_the_penalties_set(tmp_path: Path) -> None:
    closers: list[tuple[str, Closer]] = []
    url = "http://127.0.0.1:9/v1"  # never called
    penalised = chat_model(settings(tmp_path, llm_base_url=url, llm_frequency_penalty=0.4), closers)
    plain = chat_model(settings(tmp_path, llm_base_url=url), closers)
    assert getattr(penalised, "inner")._sampling == {"frequency_penalty": 0.4}  # noqa: B009
    assert getattr(plain, "inner")._sampling == {}  # noqa: B009
    for _, close in closers:
        await close()
