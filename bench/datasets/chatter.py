"""Chatbot corpora: greetings (chatterbot-corpus, Rasa's starter NLU data), chat questions, and
the first messages of open-domain chats (BYU's chitchat-dataset)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import yaml

from bench.datasets.base import DEV_SHARE, Dataset, Split, make
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


def chitchat_first_messages() -> list[Dataset]:
    """The first message of every chitchat-dataset conversation, in two sets: chats opened
    freely ("hello, anyone there?") and chats given a conversation prompt, whose first message
    mostly answers it ("Mozart", "I would travel the world"). None is a question for a legal
    knowledge base. Split by a hash of the conversation id, not of the text."""
    member = "chitchat_dataset/dataset.json"
    conversations = json.loads(read_member("chitchat-dataset", member))
    found: dict[bool, tuple[list[str], list[Split]]] = {False: ([], []), True: ([], [])}
    for conversation_id, conversation in conversations.items():
        digest = hashlib.sha256(conversation_id.encode()).hexdigest()
        split: Split = "dev" if int(digest, 16) % 10 < DEV_SHARE * 10 else "held_out"
        texts, splits = found[bool(conversation.get("prompt"))]
        texts.append(str(conversation["messages"][0][0]["text"]))
        splits.append(split)
    return [
        make(
            name,
            "greeting",
            "greeting",
            f"chitchat-dataset 0.9.0 {member}, first message of each {kind}",
            ARCHIVES["chitchat-dataset"].licence,
            found[prompted][0],
            splits=found[prompted][1],
        )
        for name, kind, prompted in (
            ("chitchat-openers", "conversation without a prompt", False),
            ("chitchat-prompted-replies", "conversation with a prompt", True),
        )
    ]
