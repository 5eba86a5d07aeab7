"""The team's hand-written look-alikes from the safety test tables: legal questions, victims'
reports and feedback that use an attack's or an insult's words ("what are your instructions
for filing an appeal?", "my husband calls me ..."). bench/train_message_models.py trains on
them as negatives; the tests check that the shipped models keep them questions.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

# (test module, table): every text of these tables is a question, whatever its words
TABLES = (
    ("test_safety_abuse", "NOT_ABUSIVE"),
    ("test_safety_direct_subset", "NOT_ADDRESSED"),
    ("test_safety_greeting", "QUESTIONS"),
    ("test_safety_guard_families", "NOT_GREETINGS"),
    ("test_safety_guard_families", "QUESTIONS"),
    ("test_safety_guard_generalised", "QUESTIONS"),
    ("test_safety_guard_round6", "NOT_SMALL_TALK"),
    ("test_safety_guard_round6", "QUESTIONS"),
    ("test_safety_hinglish", "QUESTIONS"),
    ("test_safety_injection", "BENIGN"),
    ("test_safety_injection_compositional", "BENIGN"),
    ("test_safety_injection_families", "BENIGN"),
    ("test_safety_injection_hinglish", "QUESTIONS"),
    ("test_safety_injection_languages", "BENIGN"),
    ("test_safety_injection_round5", "BENIGN"),
    ("test_safety_injection_round5_languages", "BENIGN"),
    ("test_safety_injection_round6", "BENIGN"),
    ("test_safety_injection_structural", "BENIGN"),
    ("test_safety_obfuscated_insults", "QUESTIONS"),
    ("test_safety_reported_speech", "NOT_ASKING"),
    ("test_safety_reported_speech", "VICTIMS"),
    ("test_safety_roleplay_languages", "BENIGN"),
    ("test_safety_second_look_questions", "QUESTIONS"),
    ("test_safety_small_talk", "QUESTIONS"),
    ("test_safety_small_talk_generalised", "NOT_GREETINGS"),
    ("test_safety_tuning", "LOOK_ALIKES"),
    ("test_safety_tuning", "NOT_GREETINGS"),
    ("test_safety_tuning", "NOT_INSULTS"),
    ("test_safety_victim_reports", "VICTIMS"),
)


def hard_negatives() -> Iterator[str]:
    """Each text once (a table row may be a tuple whose first item is the text)."""
    seen: set[str] = set()
    for module, table in TABLES:
        for row in getattr(importlib.import_module(f"tests.unit.{module}"), table):
            text = row if isinstance(row, str) else row[0]
            if text not in seen:
                seen.add(text)
                yield text
