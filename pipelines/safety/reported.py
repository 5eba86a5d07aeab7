"""Reported speech: a victim who quotes the abuse they received and asks for help is asking.

"My husband calls me a useless bitch, what can I do?", 'Padosi ne bola "tu harami hai", FIR
kaise karein?', "वह मुझे पागल कहता है, क्या करूँ?" hold the words of an insult, but they are
reported, not said to the reader. A flagged message is spared when:
1. it reports speech: a configured reporting cue outside the quotes ("called me", "told my
   wife", "bola ki", "keh raha tha", "ने कहा"), not said by the writer or the reader ("as I
   said: you idiot" is not reported);
2. it asks: a "?" outside the quotes, or a request for help ("please help", "kya karun"), or
   the writer is the one the words were said to (a `victim_words` entry in a clause with a
   cue: "they abused me saying ...", "usne mujhe ... bola", "मुझे ... कहता है"), or the words
   are in quotes next to the cue ('landlord ne bola "nikal ja kutte"', 'मालिक कहता है "..."'):
   a victim who only tells what happened is not turned away either;
3. the rest is clean: the quoted passages and, in each sentence, the clause holding the cue up
   to the end of the sentence are taken out, and what is left is detected again. Abuse said
   to the reader around the report ("fuck you, my lawyer said ...") is still refused.
Text smuggled in invisible characters is never spared.
"""

from __future__ import annotations

import re

from pipelines.safety.mentions import NEVER_SPARED, Detector, outside_quotes
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import Verdict

_SENTENCES = re.compile(r"(?<=[.!?\u0964\n])")
_CLAUSES = re.compile(r"(?<=[,;:])")
_URL = re.compile(r"(?:https?://|www\.)\S+")  # "watch?v=" asks nothing


def spare_reported_speech(
    verdict: Verdict,
    text: str,
    rules: SafetyRules,
    detect: Detector,
    prepared: Prepared | None = None,
) -> Verdict:
    """`prepared`: the text's prepared form, when the caller has it."""
    if not verdict.flagged or any(k in r for r in verdict.reasons for k in NEVER_SPARED):
        return verdict
    quoted = outside_quotes(text)
    outside = text if quoted is None else quoted
    whole = prepared if quoted is None and prepared is not None else None
    words = (whole or rules.compiled.prepare(outside)).words
    packs = rules.compiled.reporting
    if not any(p.cue.search(p.fold(words)) for p in packs):  # no report at all: the common case
        return verdict
    asks = quoted is not None  # the words are quoted, and a cue outside says who said them
    asks = asks or "?" in _URL.sub(" ", outside) or any(p.help.search(p.fold(words)) for p in packs)
    rest, language = [], None
    for sentence in _SENTENCES.split(outside):
        clauses = _CLAUSES.split(sentence)
        for index, clause in enumerate(clauses):
            found = _cue(clause, rules)
            if found:
                language = language or found
                asks = asks or _said_to_writer(clause, rules)
                clauses = clauses[:index]
                break
        rest += clauses
    if language is None or not asks:  # quotes alone are mentions.py's business
        return verdict
    remainder = " ".join(rest)
    if detect(remainder, rules, rules.compiled.prepare(remainder)).flagged:
        return verdict
    return Verdict(flagged=False, reasons=(f"abuse.{language}.reported_speech",))


def _said_to_writer(clause: str, rules: SafetyRules) -> bool:
    words = rules.compiled.prepare(clause).words
    return any(pack.victim.search(pack.fold(words)) for pack in rules.compiled.reporting)


def _cue(clause: str, rules: SafetyRules) -> str | None:
    """The language of the first reporting cue in a clause, if any."""
    words = rules.compiled.prepare(clause).words
    for pack in rules.compiled.reporting:
        if pack.cue.search(pack.fold(words)):
            return pack.language
    return None
