"""The answer gate: plain checks of one generated answer against what was sent to the model.

`check_answer(GateInput)` passes the answer or refuses it with a stable reason code (the only
thing the outcome, the trace and the metrics carry) and a feedback sentence for the retry
prompt (request memory only: it may quote the masked answer). Pure: no model, no I/O. The
answer is read as the model wrote it, masked: the user's own values are still placeholders.

Checks, in order (the first failure is the verdict): empty, too_long, repetitive,
prompt_echo, unknown_citation, no_citation, unknown_placeholder, dropped_placeholder,
personal_data, unsupported.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pipelines import answer_text as text

EMPTY, TOO_LONG, REPETITIVE, PROMPT_ECHO = "empty", "too_long", "repetitive", "prompt_echo"
UNKNOWN_CITATION, NO_CITATION = "unknown_citation", "no_citation"
UNKNOWN_PLACEHOLDER, DROPPED_PLACEHOLDER = "unknown_placeholder", "dropped_placeholder"
PERSONAL_DATA, UNSUPPORTED = "personal_data", "unsupported"
REASONS = (
    EMPTY, TOO_LONG, REPETITIVE, PROMPT_ECHO, UNKNOWN_CITATION, NO_CITATION,
    UNKNOWN_PLACEHOLDER, DROPPED_PLACEHOLDER, PERSONAL_DATA, UNSUPPORTED,
)  # fmt: skip

# Share of a sentence's content words found in the passages it cites (or the question).
# Measured on sample-KB passages (tests/unit/test_answer_gate_support.py): 16 supported
# sentences (copies and looser paraphrases) score 0.75-1.00, 12 unsupported ones written about
# the same passages 0.00-0.57; 0.6 sits in the gap, nearer the unsupported side.
SUPPORT_THRESHOLD = 0.6
MIN_CHECKED_WORDS = 4  # shorter sentences ("I hope this helps.") are not checked
ECHO_WORDS = 10  # a run of this many words of the system prompt is an echo
_NOT_FOUND = re.compile(
    r"\b(?:could not|couldn't|cannot|can't|did not|didn't|unable to|do not|don't) find\b"
    r"|\bnot (?:in|covered by|mentioned in) the (?:knowledge base|passages)\b"
    r"|\bpassages do not (?:contain|say|mention|cover)\b",
    re.IGNORECASE,
)
_LAST_WORD = re.compile(r"\S+\Z")  # the word still being written
_DRAFT_REQUEST = re.compile(
    r"\b(?:draft|write|prepare|compose)\b.*\b(?:letter|application|complaint|notice|e-?mail|"
    r"petition|message|reply)\b",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class GateInput:
    answer: str  # the reply, masked, as the model wrote it
    passages: Sequence[str]  # the masked passages sent, numbered from 1
    question: str  # the masked question
    sent: Sequence[str] = ()  # every other text sent (system prompt, history): its placeholders
    system_prompt: str = ""
    max_chars: int = 3000


@dataclass(frozen=True)
class GateVerdict:
    reason: str | None = None  # None: pass
    feedback: str = ""  # for the retry prompt; never traced or logged

    @property
    def passed(self) -> bool:
        return self.reason is None


PASS = GateVerdict()


def check_answer(given: GateInput) -> GateVerdict:
    answer = given.answer.strip()
    for check in (_shape, _echo, _citations, _placeholders, _personal, _support):
        verdict = check(given, answer)
        if not verdict.passed:
            return verdict
    return PASS


def says_not_found(answer: str) -> bool:
    """A short answer that says the passages do not hold the answer: it claims nothing."""
    return len(answer) <= 300 and _NOT_FOUND.search(answer) is not None


def _shape(given: GateInput, answer: str) -> GateVerdict:
    if not answer:
        return GateVerdict(EMPTY, "Your answer was empty. Answer the question from the passages.")
    if len(answer) > given.max_chars:
        cap = given.max_chars // 7
        return GateVerdict(TOO_LONG, f"Your answer was too long. Use at most {cap} words.")
    if _repeats(answer, answer):
        return GateVerdict(REPETITIVE, "Your answer repeated itself. Say each thing once.")
    return PASS


def _repeats(whole_sentences: str, whole_words: str) -> bool:
    """A sentence said three times, or a run of six words four times."""
    said = Counter(" ".join(sorted(text.content_words(s))) for s in text.sentences(whole_sentences))
    words = text.without_urls(whole_words).lower().split()
    grams = Counter(tuple(words[i : i + 6]) for i in range(len(words) - 5))
    return any(n >= 3 for s, n in said.items() if s) or any(n >= 4 for n in grams.values())


def runaway(beginning: str, max_chars: int) -> str | None:
    """`too_long` or `repetitive` when the gate is already sure to refuse any reply that starts
    with `beginning` (a stream read so far), else None. Only the sentences and words that are
    complete are read: more text can add to them, never change them, so the counts only grow."""
    if len(beginning.strip()) > max_chars:
        return TOO_LONG
    ends = [m.start() for m in text.SENTENCE_END.finditer(beginning)]
    if _repeats(beginning[: ends[-1]] if ends else "", _LAST_WORD.sub("", beginning)):
        return REPETITIVE
    return None


def _ngrams(text: str, n: int) -> frozenset[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return frozenset(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


@lru_cache(maxsize=8)  # one system prompt per user name format: computed once
def _prompt_ngrams(system_prompt: str) -> frozenset[tuple[str, ...]]:
    return _ngrams(system_prompt, ECHO_WORDS)


@lru_cache(maxsize=64)  # a passage is checked again on a retry and in the next chat
def _passage_words(passage: str) -> frozenset[str]:
    return frozenset(text.content_words(passage))


def clear_caches() -> None:
    """Forget the passages and prompts seen (to time the gate cold)."""
    _prompt_ngrams.cache_clear()
    _passage_words.cache_clear()


def _echo(given: GateInput, answer: str) -> GateVerdict:
    if _prompt_ngrams(given.system_prompt) & _ngrams(answer, ECHO_WORDS):
        feedback = "Your answer repeated your instructions. Answer only the question."
        return GateVerdict(PROMPT_ECHO, feedback)
    return PASS


def _citations(given: GateInput, answer: str) -> GateVerdict:
    count, cited = len(given.passages), text.citations(answer)
    wrong = sorted({n for n in cited if not 1 <= n <= count})
    if wrong:
        shown = ", ".join(f"[{n}]" for n in wrong)
        exist = f"passages 1-{count} exist" if count > 1 else "passage 1 exists"
        exist = exist if count else "no passage was given"
        feedback = f"You cited {shown}; only {exist}. Cite only those numbers."
        return GateVerdict(UNKNOWN_CITATION, feedback)
    if count and not cited and not says_not_found(answer):
        feedback = "Your answer cited no passage. Cite each statement's passage, like [1]."
        return GateVerdict(NO_CITATION, feedback)
    return PASS


def _placeholders(given: GateInput, answer: str) -> GateVerdict:
    known: set[str] = set()
    for sent in (given.question, *given.sent, *given.passages):
        known.update(text.placeholders(sent))
    written = text.placeholders(answer)
    if made_up := [p for p in written if p not in known]:
        feedback = (
            f"You wrote <{made_up[0]}>, which was not given. Use only the placeholders in the "
            "question, exactly as written, and never invent one."
        )
        return GateVerdict(UNKNOWN_PLACEHOLDER, feedback)
    if _DRAFT_REQUEST.search(given.question):
        dropped = [p for p in text.placeholders(given.question) if p not in written]
        if dropped:
            feedback = f"The text you draft must keep <{dropped[0]}> from the question."
            return GateVerdict(DROPPED_PLACEHOLDER, feedback)
    return PASS


def _personal(given: GateInput, answer: str) -> GateVerdict:
    found = list(text.personal_values(answer))
    if not found:
        return PASS
    allowed = {
        text.normalised(value)
        for source in (given.question, *given.sent, *given.passages)
        for _, value in text.personal_values(source)
    }
    for entity, value in found:
        if text.normalised(value) not in allowed:
            kind = entity.lower().replace("_", " ")
            feedback = (
                f"Your answer contains a {kind} that is in neither the question nor the "
                "passages. Remove it; use only values given."
            )
            return GateVerdict(PERSONAL_DATA, feedback)
    return PASS


def support(sentence: str, passages: Sequence[str], question: str = "") -> float:
    """The share of the sentence's content words found in the passages (or the question)."""
    words = text.content_words(sentence)
    if not words:
        return 1.0
    known = text.content_words(question).union(*(_passage_words(p) for p in passages))
    return len(words & known) / len(words)


def _support(given: GateInput, answer: str) -> GateVerdict:
    if not given.passages or says_not_found(answer):
        return PASS
    everywhere = text.citations(answer)
    for sentence in text.sentences(answer):
        if len(text.content_words(sentence)) < MIN_CHECKED_WORDS:
            continue
        cited = text.citations(sentence) or everywhere or range(1, len(given.passages) + 1)
        passages = [given.passages[n - 1] for n in dict.fromkeys(cited)]
        if support(sentence, passages, given.question) < SUPPORT_THRESHOLD:
            quoted = sentence if len(sentence) <= 160 else sentence[:157] + "..."
            feedback = (
                f'The passages you cite do not support: "{quoted}". Say only what the '
                "passages state, and cite the passage each statement comes from."
            )
            return GateVerdict(UNSUPPORTED, feedback)
    return PASS
