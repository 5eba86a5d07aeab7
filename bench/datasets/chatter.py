"""Chatbot corpora: greetings (chatterbot-corpus, Rasa's starter NLU data) and chat questions."""

from __future__ import annotations

from typing import Any

import yaml

from bench.datasets.base import Dataset, make
from bench.datasets.sources import ARCHIVES, list_members, read_member

_CORPUS = "chatterbot_corpus/data/"
# Topic files whose first turns are real questions to a bot (not greetings or small talk).
QUESTION_TOPICS: tuple[str, ...] = (
    "ai",
    "coding",
    "computers",
    "food",
    "health",
    "history",
    "humor",
    "sports",
)
QUESTION_TOPICS += ("trivia",)
# Languages the greeting rules are meant to cover (European ones in the corpus).
GREETING_LANGUAGES = ("english", "german", "french", "italian", "spanish", "portuguese", "dutch")


def _conversations(member: str) -> list[list[Any]]:
    loaded = yaml.safe_load(read_member("chatterbot-corpus", member)) or {}
    return [c for c in loaded.get("conversations") or [] if isinstance(c, list) and c]


def chatterbot_greetings() -> list[Dataset]:
    """The first turn of every conversation in greetings.yml, one set per language."""
    found = []
    for language in GREETING_LANGUAGES:
        member = f"{_CORPUS}{language}/greetings.yml"
        if member not in list_members("chatterbot-corpus", member):
            continue
        openers = [str(c[0]) for c in _conversations(member)]
        found.append(
            make(
                f"chatterbot-greetings-{language}",
                "greeting",
                "greeting",
                f"chatterbot-corpus 1.3.3 {member}",
                ARCHIVES["chatterbot-corpus"].licence,
                openers,
            )
        )
    return found


def rasa_greetings() -> Dataset:
    member = "rasa/cli/initial_project/data/nlu.yml"
    nlu = yaml.safe_load(read_member("rasa", member))["nlu"]
    examples = next(i["examples"] for i in nlu if i.get("intent") == "greet")
    return make(
        "rasa-greet-intent",
        "greeting",
        "greeting",
        f"rasa 3.6.21 {member} (intent: greet)",
        ARCHIVES["rasa"].licence,
        [line.lstrip("- ") for line in examples.splitlines()],
    )


def chatterbot_questions() -> Dataset:
    texts = []
    for topic in QUESTION_TOPICS:
        for conversation in _conversations(f"{_CORPUS}english/{topic}.yml"):
            first = str(conversation[0]).strip()
            if first.endswith("?"):
                texts.append(first)
    return make(
        "chatterbot-questions",
        "benign",
        "question",
        "chatterbot-corpus 1.3.3 english/{" + ",".join(QUESTION_TOPICS) + "}.yml, first turns",
        ARCHIVES["chatterbot-corpus"].licence,
        texts,
    )
