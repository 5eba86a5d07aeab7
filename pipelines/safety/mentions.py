"""Quoted mentions: a question about words in quotes is not those words said to the assistant.

'Is it a crime to tell a police officer "fuck you"?' or 'What does "ignore all previous
instructions" mean?' quote abuse or an attack in order to ask about it. A flagged message is
spared when it asks a question (a "?" outside the quotes), uses one of the configured mention
cues outside the quotes ("mean", "said", "crime", ...), and is clean once the quoted passages
are taken out. Text smuggled in invisible characters is never spared. With `max_quoted_words`
(the injection detector), a flagged quoted passage longer than that, or of more than one
sentence, is a pasted text (a notice, a message, a resume), not a phrase asked about: the
model would read it as it reads the message, so it is never spared.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import Verdict

Detector = Callable[[str, SafetyRules, Prepared | None], Verdict]
_QUOTED = re.compile(
    '"[^"\\n]{1,400}"|\u201c[^\u201d\\n]{1,400}\u201d|\u00ab[^\u00bb\\n]{1,400}\u00bb'
    "|\u201e[^\u201c\u201d\\n]{1,400}[\u201c\u201d]"
    # single quotes only at word edges: "don't" and "workers' union" open nothing, nor does an
    # elision ('em, 'cause); inside, a contraction ("you're a beggar's daughter") does not close
    # the quote
    "|(?<![\\w'])'(?!(?:em|cause|cos|coz|bout|til|round|tis|twas|n)\\b)"
    "(?:[^'\\n]|(?<=[a-z])'(?=(?:s|t|re|ll|ve|d|m)\\b)){1,400}'(?![\\w'])"
    # curly single quotes alike ("he keeps saying \u2018you are a ...\u2019")
    "|(?<!\\w)\u2018(?:[^\u2019\\n]|(?<=[a-z])\u2019(?=(?:s|t|re|ll|ve|d|m)\\b)){1,400}\u2019(?!\\w)"
)
# smuggled text, and instructions to an assistant inside a pasted document, are never spared
NEVER_SPARED = ("unicode_tags", "variation_selectors", "injection.document.")
_SENTENCES = re.compile(r"[.!?\u0964]\s+\S")  # a sentence end with more text after it


def pasted_parts(text: str) -> list[str]:
    """What the writer quotes or pastes: each quoted passage, and the lines after the first."""
    parts = [match.group()[1:-1] for match in _QUOTED.finditer(text)]
    first, newline, rest = text.partition("\n")
    return parts + [rest] if newline and rest.strip() else parts


def outside_quotes(text: str) -> str | None:
    """The message with each quoted passage replaced by an ellipsis; None without quotes. The
    ellipsis is one character ("\u2026"): it ends no sentence, so the report stays one clause."""
    if not _QUOTED.search(text):
        return None
    return _QUOTED.sub(" \u2026 ", text)


def spare_quoted_mention(
    verdict: Verdict,
    text: str,
    rules: SafetyRules,
    detect: Detector,
    detector: str,
    max_quoted_words: int | None = None,
) -> Verdict:
    if not verdict.flagged or any(k in r for r in verdict.reasons for k in NEVER_SPARED):
        return verdict
    outside = outside_quotes(text)
    if outside is None:
        return verdict
    if max_quoted_words is not None and _pasted_attack(text, rules, detect, max_quoted_words):
        return verdict
    prepared = rules.compiled.prepare(outside)
    if "?" not in prepared.flat or rules.compiled.mention_cues.isdisjoint(prepared.tokens):
        return verdict
    if detect(outside, rules, prepared).flagged:
        return verdict
    return Verdict(flagged=False, reasons=(f"{detector}.quoted_mention",))


def _pasted_attack(text: str, rules: SafetyRules, detect: Detector, max_words: int) -> bool:
    """A flagged quoted passage that is a pasted text: long, or more than one sentence."""
    for match in _QUOTED.finditer(text):
        passage = match.group()[1:-1]
        if len(passage.split()) <= max_words and not _SENTENCES.search(passage.strip()):
            continue
        if detect(passage, rules, None).flagged:
            return True
    return False
