"""PipelineConfig from files: service/config/safety.yaml, keywords.yaml, models/*.json,
data_dir/allowlist.json, and the fitted answer gate, calibration.json (in WARDEN_CONFIG_DIR
when it is set, else in the data folder; failing that, the shipped one in service/config)."""

from __future__ import annotations

import json
import logging
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import yaml

from pipelines.deps import PipelineConfig
from pipelines.romanised import QueryWords
from pipelines.safety.confidence import GateCalibration
from pipelines.safety.linear import LinearTextModel
from pipelines.safety.message_models import HEADS, MessageModels
from pipelines.safety.rules import SafetyRules
from service.settings import Settings
from service.word_lists import read_words

log = logging.getLogger("warden.config")
DEFAULT_CONFIG_DIR = Path(__file__).parent / "config"
ALLOWLIST_FILE = "allowlist.json"
QUERY_WORDS_FILE = "query_words.yaml"
ENGLISH_WORDS = DEFAULT_CONFIG_DIR / "pii" / "english_words.txt"  # SCOWL, lower-case entries
CALIBRATION_FILE = "calibration.json"  # written by `warden eval retrieval --calibrate`
SAFETY_MODELS = ("insult", "injection")  # models/<name>.json, trained by bench/train_classifiers.py
# models/message_<head>.json, trained by bench/train_message_models.py
MESSAGE_MODELS = tuple(f"message_{head}" for head in HEADS)


class ConfigFileError(ValueError):
    """A configuration file that cannot be used; the message names the file and what is
    wrong (the CLI prints it and exits 2)."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """yaml.safe_load keeps the last of two equal keys silently, so a second rule of the same
    name in safety.yaml would replace the first unseen: this loader refuses it."""


def _unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue  # "<<: *defaults": a key given here overrides the merged one, as in YAML
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            continue  # construct_mapping refuses it with its own message
        if key in seen:
            line = key_node.start_mark.line + 1
            raise ValueError(f"line {line}: the key {key!r} is given twice in one mapping")
        seen.add(key)
    return loader.construct_mapping(node, deep=True)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def read_unique_yaml(text: str) -> Any:
    """Parses YAML like yaml.safe_load, but a key given twice in one mapping is a ValueError."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 (a SafeLoader subclass)


def _read_yaml(path: Path) -> Mapping[str, Any]:
    if not path.is_file():
        log.warning("%s not found: using built-in defaults", path)
        return {}
    try:
        loaded = read_unique_yaml(path.read_text(encoding="utf-8")) or {}
    except (ValueError, yaml.YAMLError) as error:
        raise ConfigFileError(f"{path}: {error}") from None
    if not isinstance(loaded, Mapping):
        raise ConfigFileError(f"{path} must hold a mapping at the top level")
    return loaded


def keyword_map(raw: Mapping[str, Any]) -> dict[str, str]:
    """keywords.yaml: either `{keywords: {term: expansion}}` or the mapping itself."""
    terms = raw.get("keywords", raw)
    if not isinstance(terms, Mapping):
        raise ConfigFileError("keywords.yaml: `keywords` must map terms to expansions")
    return {str(term).lower(): str(expansion) for term, expansion in terms.items()}


def query_words(config_dir: Path, keywords: Mapping[str, str]) -> QueryWords:
    """query_words.yaml (the folder's own, else the shipped one) with the English word list the
    person-name recognizer reads: which words of a romanised Hindi question are embedded."""
    path = config_dir / QUERY_WORDS_FILE
    if not path.is_file():
        path = DEFAULT_CONFIG_DIR / QUERY_WORDS_FILE
    raw = _read_yaml(path)
    lists = {name: raw.get(name, []) for name in ("markers", "function_words", "english")}
    for name, words in lists.items():
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ConfigFileError(f"{path}: `{name}` must be a list of words")
    glosses = raw.get("glosses", {})
    if not isinstance(glosses, Mapping) or not all(
        isinstance(k, str) and len(k.split()) == 1 and isinstance(v, str) and v.strip()
        for k, v in glosses.items()
    ):
        raise ConfigFileError(f"{path}: `glosses` must map single words to their English")
    english = read_words(ENGLISH_WORDS)  # the list the person-name recognizer reads
    return QueryWords.of(
        lists["markers"], lists["function_words"], [*english, *lists["english"]], keywords, glosses
    )


def load_allowlist(data_dir: Path) -> frozenset[str]:
    """data_dir/allowlist.json (written by `warden ingest`): `{"terms": [...]}` or a list."""
    path = data_dir / ALLOWLIST_FILE
    if not path.is_file():
        return frozenset()
    raw = json.loads(path.read_text(encoding="utf-8"))
    terms = raw.get("terms", []) if isinstance(raw, dict) else raw
    if not isinstance(terms, list):
        raise ConfigFileError(f"{path} must hold a list of terms")
    return frozenset(str(term) for term in terms if str(term).strip())


def load_safety_model(config_dir: Path, name: str) -> LinearTextModel:
    """config_dir/models/<name>.json, else the shipped one. The models are trained on the
    word forms the shipped rules normalise to: a safety.yaml with other word lists changes
    those forms a little, and a model retrained on it fits it best."""
    for folder in dict.fromkeys((config_dir, DEFAULT_CONFIG_DIR)):
        path = folder / "models" / f"{name}.json"
        if path.is_file():
            try:
                return LinearTextModel.from_mapping(json.loads(path.read_text(encoding="utf-8")))
            except (ValueError, TypeError) as exc:  # JSONDecodeError is a ValueError
                raise ConfigFileError(f"{path}: {exc}") from exc
    raise ConfigFileError(f"no {name} model in {config_dir / 'models'} nor in the shipped config")


def load_safety_rules(config_dir: Path | None = None, models: bool = True) -> SafetyRules:
    """safety.yaml, with the insult, injection and message models plugged in unless `models`
    is False."""
    config_dir = config_dir or DEFAULT_CONFIG_DIR
    path = config_dir / "safety.yaml"
    raw = _read_yaml(path)
    try:
        rules = SafetyRules.from_mapping(raw)
    except ValueError as error:
        raise ConfigFileError(f"{path}: {error}") from None
    if not models:
        return rules
    rules = rules.with_models(*(load_safety_model(config_dir, name) for name in SAFETY_MODELS))
    heads = (load_safety_model(config_dir, name) for name in MESSAGE_MODELS)
    return rules.plugged(message_models=MessageModels(*heads))


def calibration_path(settings: Settings) -> Path:
    """Where `--calibrate` installs the fitted gate: WARDEN_CONFIG_DIR if set, else the data
    folder."""
    return (settings.config_dir or settings.data_dir) / CALIBRATION_FILE


def gate_calibration_path(settings: Settings) -> Path:
    """The gate the deployment reads: the installed one (`calibration_path`), else the shipped
    default in the built-in config folder (which may be absent: then the dense threshold)."""
    installed = calibration_path(settings)
    return installed if installed.is_file() else DEFAULT_CONFIG_DIR / CALIBRATION_FILE


def load_calibration(path: Path) -> GateCalibration | None:
    """The fitted gate, or None when there is no file (then the dense threshold decides)."""
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, Mapping):
            raise ValueError("it must hold an object")
        return GateCalibration.from_mapping(raw)
    except ValueError as exc:  # JSONDecodeError is a ValueError
        raise ConfigFileError(f"{path}: {exc}") from exc


def load_pipeline_config(settings: Settings) -> PipelineConfig:
    config_dir = settings.config_dir or DEFAULT_CONFIG_DIR
    keywords = keyword_map(_read_yaml(config_dir / "keywords.yaml"))
    return PipelineConfig(
        confidence_threshold=settings.confidence_threshold,
        answer_retries=settings.answer_retries,
        answer_max_tokens=settings.answer_max_tokens,
        answer_stop_runaway=settings.answer_stop_runaway,
        answer_timeout_s=settings.llm_timeout_s,
        keyword_map=keywords,
        query_words=query_words(config_dir, keywords),
        allowlist=load_allowlist(settings.data_dir),
        safety=load_safety_rules(config_dir, models=settings.safety_models),
        calibration=load_calibration(gate_calibration_path(settings)),
    )
