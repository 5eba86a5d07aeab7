"""Reading a model's answer for the answer gate (pipelines/answer_gate.py): its citations,
placeholders, sentences, content words, and values that look like personal data. Pure, no I/O.

The personal-data patterns mirror the masker's pattern recognizers (Presidio's e-mail, phone,
credit card with the Luhn check, IBAN, IP address, US SSN; the Indian PAN, Aadhaar, UPI id and
IFSC): a model has no business writing such a value unless the request or a passage held it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# `[1]`, `[1, 2]`, `[1][3]`; not `[1]` inside a URL (URLs are blanked out first).
_CITATION = re.compile(r"\[\s*(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\s*\]")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# The vault writes `<TYPE_N>`; `< TYPE_N >` is restored too. `<EMAIL_ADDRESS>` (no number) is a
# placeholder the model made up as well.
PLACEHOLDER = re.compile(r"<\s*([A-Z][A-Z0-9_]*?)(?:_(\d+))?\s*>")
_WORD = re.compile(r"[a-z0-9]+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# A number that follows one of these is a section, article or rule number, not a card.
_LEGAL_CUE = re.compile(
    r"(?:\b(?:sections?|secs?|ss?|articles?|arts?|rules?|clauses?|orders?|acts?|no|"
    r"page|pages|year|years)\.?|§|u/s)\s*$",
    re.IGNORECASE,
)

_STOPWORDS = """a an the and or but if then than that this these those there here of to in on at by
    for from with without within into onto over under as is are was were be been being am do
    does did done have has had having it its it's they them their theirs you your yours we our
    ours he she his her i me my mine not no nor so such can could may might must shall should
    will would also any all each every some more most other which who whom whose what when where
    why how about after before again further once only own same too very just up down out off
    per via ie eg etc one two don doesn didn isn aren wasn weren won shouldn couldn wouldn
    haven hasn let lets"""
STOPWORDS = frozenset(_STOPWORDS.split())

# a digit run that is not part of a longer one (digits, a decimal, digit groups)
_START, _END = r"(?<![\d.])(?<!\d[ -])", r"(?!\w|[.,]\d|[ -]\d)"
_OCTET = r"(?:25[0-5]|2[0-4]\d|1?\d?\d)"
_PHONE_PREFIX = r"(?:\+\d{1,3}[ -]?)?(?:\(\d{2,5}\)[ -]?)?"
PERSONAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EMAIL_ADDRESS", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    ("UPI_ID", re.compile(r"\b[\w.-]{2,}@(?:ok)?[a-z]{3,}\b(?!\.)")),
    ("IP_ADDRESS", re.compile(rf"\b(?:{_OCTET}\.){{3}}{_OCTET}\b")),
    ("IBAN_CODE", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")),
    ("IN_PAN", re.compile(r"\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b")),
    ("IN_IFSC", re.compile(r"\b[A-Z]{4}0[A-Z0-9]{6}\b")),
    ("US_SSN", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
    ("CREDIT_CARD", re.compile(rf"{_START}\d(?:[ -]?\d){{12,18}}{_END}")),
    ("IN_AADHAAR", re.compile(rf"{_START}[2-9]\d{{3}}[ -]?\d{{4}}[ -]?\d{{4}}{_END}")),
    ("PHONE_NUMBER", re.compile(rf"{_START}(?<!\w){_PHONE_PREFIX}\d(?:[ -]?\d){{7,11}}{_END}")),
)  # fmt: skip


def without_urls(text: str) -> str:
    return _URL.sub(" ", text)


def citations(text: str) -> list[int]:
    """The passage numbers cited, in order (a `[1]` inside a URL is not a citation)."""
    found: list[int] = []
    for match in _CITATION.finditer(without_urls(text)):
        found += [int(n) for n in re.split(r"\s*[,;]\s*", match.group(1).strip())]
    return found


def placeholders(text: str) -> list[str]:
    """The placeholders written, normalised to the vault's form (`EMAIL_ADDRESS_1`; a made-up
    one without a number stays `EMAIL_ADDRESS`)."""
    found = PLACEHOLDER.finditer(text)
    return [m.group(1) + (f"_{m.group(2)}" if m.group(2) else "") for m in found]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip()]


def stem(word: str) -> str:
    """A crude suffix strip: `complaints`/`complaint`, `filed`/`file`, `filing`/`fil`..."""
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """Lower-cased, stemmed words that carry meaning (no stopwords, citations or placeholders)."""
    text = PLACEHOLDER.sub(" ", _CITATION.sub(" ", without_urls(text)))
    text = text.lower().replace("’", "'")
    return {stem(w) for w in _WORD.findall(text) if w not in STOPWORDS and len(w) > 1}


def luhn(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def personal_values(text: str) -> Iterator[tuple[str, str]]:
    """(entity type, value) for each value that looks like personal data. A digit run right
    after `section`, `article`, `rule`... is a legal reference; a card number must pass Luhn."""
    text = PLACEHOLDER.sub(" ", text)
    taken: list[tuple[int, int]] = []
    for entity, pattern in PERSONAL_PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            value = match.group(0)
            if entity in ("CREDIT_CARD", "IN_AADHAAR", "PHONE_NUMBER"):
                if _LEGAL_CUE.search(text[max(0, start - 12) : start]):
                    continue
                if entity == "CREDIT_CARD" and not luhn(_digits(value)):
                    continue
            taken.append((start, end))
            yield entity, value


def normalised(value: str) -> str:
    """A value compared with what the request or the passages held: digits only for numbers,
    else lower-cased without spaces."""
    digits = _digits(value)
    return digits if len(digits) >= 6 else "".join(value.lower().split())
