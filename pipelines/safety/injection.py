"""Prompt injection and jailbreak attempts: override, prompt extraction, persona, indirect.

Runs the configured phrases and patterns on the word form (every language at once), the
indirect-injection markers on the flat form, and again on any text hidden in an encoding
(base64, hex, percent or \\u escapes, Morse, binary) or scrambled (ROT13 and other Caesar
shifts, reversed, split or run-together words, leetspeak, strings joined with +). Text
smuggled in invisible characters is flagged whatever it says. Jailbreak signals ("unfiltered",
"stay in character", "an AI named") are weak one by one: `injection_min_signals` distinct ones
together flag a message. When no rule
fires, the shipped injection model (a linear model over word n-grams, trained by
bench/train_classifiers.py) scores the word form of a message of at least
`injection_model_min_words` words against `injection_model_threshold`. What the writer quotes
or pastes (a notice, a chat, an e-mail) is also read with the uploaded-document rules: an
instruction to an assistant inside it is an indirect injection, and is never spared as a mere
mention. The message's own words are not: users address the assistant directly.
"""

from __future__ import annotations

from pipelines.safety.ciphers import deciphered
from pipelines.safety.encodings import (
    decoded_payloads,
    hidden_words,
    invisible_payload,
    unscrambled,
)
from pipelines.safety.learned import injection_model_input
from pipelines.safety.mentions import pasted_parts, spare_quoted_mention
from pipelines.safety.normalize import Prepared, flatten
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import Verdict


def detect_injection(text: str, rules: SafetyRules, prepared: Prepared | None = None) -> Verdict:
    verdict = _detect(text, rules, prepared)
    return spare_quoted_mention(
        verdict, text, rules, _detect, "injection", max_quoted_words=rules.mention_max_words
    )


def _detect(text: str, rules: SafetyRules, prepared: Prepared | None) -> Verdict:
    return Verdict.of(injection_reasons(text, rules, prepared))


def injection_reasons(
    text: str, rules: SafetyRules, prepared: Prepared | None = None, *, model: bool = True
) -> list[str]:
    """The rules that fire on the text or on what it hides; `model=False` leaves the shipped
    model out (it was trained on chat messages, not on documents)."""
    return _scan(text, rules, prepared, rules.encoded_max_depth, model)


def _scan(
    text: str, rules: SafetyRules, prepared: Prepared | None, depth: int, model: bool
) -> list[str]:
    compiled = rules.compiled
    prepared = prepared or compiled.prepare(text)
    reasons = compiled.injection.all(prepared.words) + compiled.indirect.all(prepared.flat)
    reasons += [r for part in pasted_parts(text) for r in compiled.document.all(flatten(part))]
    if not reasons and _hides_wrongdoing(text, rules):
        reasons = ["injection.obfuscated:wrongdoing"]
    if not reasons:
        reasons = _signals(prepared, rules) or (_modelled(prepared, rules) if model else [])
    hidden = invisible_payload(text)
    if hidden is not None:
        carrier, payload = hidden
        reasons.append(f"injection.{carrier}")
        inner = _scan(payload, rules, None, depth - 1, model)
        reasons += [f"injection.{carrier}:{r}" for r in inner]
    if depth > 0 and not reasons:
        payloads = decoded_payloads(
            text, min_base64=rules.encoded_min_base64_chars, min_hex=rules.encoded_min_hex_chars
        )
        payloads += unscrambled(text, compiled.decode_cues, max_chars=rules.obfuscated_max_chars)
        payloads += deciphered(text, compiled.decode_cues, max_chars=rules.obfuscated_max_chars)
        for encoding, payload in payloads:
            inner = _scan(payload, rules, None, depth - 1, model)
            if not inner and encoding != "joined" and _newly_shown(payload, prepared, rules):
                inner = ["wrongdoing"]
            reasons += [f"injection.{encoding}:{r}" for r in inner]
    return reasons


def _hides_wrongdoing(text: str, rules: SafetyRules) -> bool:
    """A crime's word ("fake", "rishwat") itself spelt to slip past a filter ("f.a.k.e",
    "n4kli"): nobody hides an honest question. Decoded payloads get the same test
    (`_newly_shown`). No victim's ask spares it: a review showed "what can I do?" added to
    any framed or hidden how-to."""
    hidden = hidden_words(text, max_chars=rules.obfuscated_max_chars)
    return any(_crime_words(run, rules) for run in hidden)


def _crime_words(text: str, rules: SafetyRules) -> set[str]:
    """The `wrongdoing` words and phrases in the text's word form."""
    compiled = rules.compiled
    return {m.group(0) for m in compiled.wrongdoing.finditer(compiled.prepare(text).words)}


def _signals(prepared: Prepared, rules: SafetyRules) -> list[str]:
    found = rules.compiled.injection_signals.all(prepared.words)
    if len(found) < rules.injection_min_signals:
        return []
    return ["injection.signals:" + "+".join(name.split(".")[-1] for name in found)]


def _modelled(prepared: Prepared, rules: SafetyRules) -> list[str]:
    """The model's verdict on a message long enough to judge (short ones are the rules')."""
    model, shown = rules.injection_model, injection_model_input(prepared, rules)
    if model is None or shown is None:
        return []
    score = model.probability(shown)
    return [f"injection.model:{score:.2f}"] if score >= rules.injection_model_threshold else []


def _newly_shown(payload: str, prepared: Prepared, rules: SafetyRules) -> bool:
    """A crime's words that a decoded payload shows and the message did not ("fake" in "Is it
    legal to use fake profiles that role-play as users?" was never hidden). Words joined across
    hyphens are not asked: "a back-dated agreement" hides nothing."""
    return bool(_crime_words(payload, rules) - _crime_words(prepared.raw, rules))
