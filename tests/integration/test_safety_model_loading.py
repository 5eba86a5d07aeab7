"""Loading the safety models: the shipped ones, a config folder's own, and broken files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.safety.linear import FORMAT
from service.pipeline_config import DEFAULT_CONFIG_DIR, load_safety_model, load_safety_rules


def _write_model(folder: Path, name: str, bias: float) -> None:
    (folder / "models").mkdir(parents=True, exist_ok=True)
    model = {"format": FORMAT, "name": name, "buckets": 8, "bias": bias, "slots": [], "weights": []}
    (folder / "models" / f"{name}.json").write_text(json.dumps(model))


def _config_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / "safety.yaml").write_text((DEFAULT_CONFIG_DIR / "safety.yaml").read_text())
    return folder


def test_shipped_models_load_with_the_shipped_rules() -> None:
    rules = load_safety_rules()
    assert rules.insult_model is not None and rules.injection_model is not None
    assert rules.insult_model.name == "insult" and rules.injection_model.name == "injection"
    assert load_safety_rules(models=False).insult_model is None


def test_a_config_folder_model_wins_and_the_other_falls_back_to_the_shipped_one(
    tmp_path: Path,
) -> None:
    folder = _config_dir(tmp_path)
    _write_model(folder, "insult", bias=3.0)
    rules = load_safety_rules(folder)
    assert rules.insult_model is not None and rules.insult_model.bias == 3.0
    assert rules.insult_model.weights == {}
    assert rules.injection_model == load_safety_model(DEFAULT_CONFIG_DIR, "injection")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "models/insult.json"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"format": "other/9"}), "format"),
    ],
)
def test_a_broken_model_file_fails_naming_the_file(
    tmp_path: Path, content: str, message: str
) -> None:
    folder = _config_dir(tmp_path)
    (folder / "models").mkdir()
    (folder / "models" / "insult.json").write_text(content)
    with pytest.raises(ValueError, match=message) as raised:
        load_safety_rules(folder)
    assert str(folder / "models" / "insult.json") in str(raised.value)


def test_a_missing_model_is_an_error_not_a_silent_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _config_dir(tmp_path)
    monkeypatch.setattr("service.pipeline_config.DEFAULT_CONFIG_DIR", tmp_path / "nowhere")
    with pytest.raises(ValueError, match="no insult model"):
        load_safety_model(folder, "insult")
