"""Document mode: a chunk of a user's upload is untrusted input (OWASP LLM01, indirect injection).

A chunk is held back (never indexed, so never shown to the model) when it carries what an
ordinary document does not: the injection rules that guard chat messages (overrides, prompt
extraction, personas, role markers and chat-template tokens, in every configured language,
also inside base64, hex, ROT13, reversed or invisible text), and the `document` patterns of
safety.yaml, which only make sense inside a document: words addressed to an AI or assistant
("AI assistant reading this:", "Note to the chatbot"), orders about its answers ("append this
link to every answer", "ignore the user's question", "do not reveal this instruction"),
tool-call requests and chat transcripts. The shipped injection model is left out: it was
trained on chat messages, and legal text is not its input. A quoted attack in a document is
not spared as a message's quoted mention is: the model would read it all the same.

The curated core knowledge base (`warden ingest`) is trusted and not screened.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pipelines.safety.injection import injection_reasons
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import Verdict


def screen_chunk(text: str, rules: SafetyRules) -> Verdict:
    """Flagged, with the rules that fired, when the chunk must not reach the model."""
    prepared = rules.compiled.prepare(text)
    reasons = rules.compiled.document.all(prepared.flat)
    reasons += injection_reasons(text, rules, prepared, model=False)
    return Verdict.of(reasons)


def held_back_summary(verdicts: Iterable[Verdict]) -> tuple[int, tuple[str, ...]]:
    """How many chunks were held back, and why: each rule once, the most frequent first."""
    held = [v for v in verdicts if v.flagged]
    counts = Counter(_family(reason) for v in held for reason in dict.fromkeys(v.reasons))
    return len(held), tuple(name for name, _ in counts.most_common())


def _family(reason: str) -> str:
    """'injection.base64:injection.en.override' -> 'injection.base64' (the carrier is enough)."""
    return reason.split(":", 1)[0]
