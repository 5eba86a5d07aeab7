"""What kind of answer a question asks for, and whether a sentence gives that kind (pure).

"How many days does the PIO have to reply?" asks for a span of time, "how much is the fee" for
an amount, "where do I complain" for a place to go. MiniLM ranks a sentence by its topic, so a
definition of the PIO can outrank "30 days from receipt for a normal reply". The extractive
answer gives a sentence of the asked kind a small lead (`TYPE_BONUS`) over the others; it
reorders close candidates and never brings in a sentence the pre-selection left out. English,
romanised Hindi and Devanagari forms of the question; a bare "when" or "who" asks too many things to
tell ("when does the landlord have to return the deposit": on leaving, not in days). The
sentences are the knowledge base's, read in English.
"""

from __future__ import annotations

import re

# added to a sentence's cosine (MiniLM, 0-1) when it gives the asked kind of answer
TYPE_BONUS = 0.06

_DURATION_ASKED = re.compile(
    r"\bhow\s+(?:many|much)\s+(?:days?|weeks?|months?|years?|hours?|time|longer)\b"
    r"|\bhow\s+long\b|\btime\s*limits?\b|\bwithin\s+how\b|\bby\s+when\b|\bhow\s+soon\b"
    r"|\bkitn[aei]\s+(?:din|dino|mahin[ae]|saal|sal|time|samay|waqt|der)\b|\bkab\s+tak\b"
    r"|कितन[ाेी]\s+(?:दिन|दिनों|महीने|साल|समय|वक्त|देर)|कब\s+तक|समय\s*सीमा",
    re.IGNORECASE,
)
# a span of time, not an age ("below 18 years of age", "60 years old")
_DURATION_GIVEN = re.compile(
    r"\b\d+\s*(?:-|to)?\s*\d*\s*(?:days?|weeks?|months?|years?|hours?)\b(?!\s+(?:of\s+age|old))"
    r"|\bwithin\s+(?:a|one|two|three|thirty|sixty|ninety)\s+(?:days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
_AMOUNT_ASKED = re.compile(
    r"\bhow\s+much\b(?!\s+(?:time|longer|evidence|proof|information|detail))|\b(?:fees?|cost)\b"
    r"|\bkitn[aei]\s+(?:paise|paisa|rupaye|fees?|kharcha|muaavza|muavza|milta|milti|milega|milegi)\b"
    r"|कितन[ाीे]\s+(?:पैसे|पैसा|रुपये|फीस|खर्च|मुआवज|मिल)",
    re.IGNORECASE,
)
_AMOUNT_GIVEN = re.compile(
    r"(?:\bRs\.?|₹|\bINR)\s*\d|\b\d[\d,]*\s*(?:rupees|lakh|crore)\b|\b\d+\s*(?:%|per\s*cent)"
    r"|\bamount\b(?!\s+to\b)|\b(?:fees?|free of charge|no fee)\b",
    re.IGNORECASE,
)
_PLACE_ASKED = re.compile(
    r"\bwhere\s+(?:can|do|does|should|to|is|are|will|must)\b"
    r"|\b(?:in\s+)?which\s+(?:court|office|authority|forum|commission|police\s+station)\b"
    r"|\bkah(?:a|aa)n\b|कहाँ|कहां",  # not "kaha": as often "said" as "where"
    re.IGNORECASE,
)
_PLACE_GIVEN = re.compile(
    r"\b(?:courts?|office|commission|police\s+station|authority|tribunal|forum|portal|website"
    r"|helpline|centre|center|magistrate|DLSA|SLSA|NALSA)\b|\bwww\.|\.gov\.in\b",
    re.IGNORECASE,
)

KINDS = (
    ("duration", _DURATION_ASKED, _DURATION_GIVEN),
    ("amount", _AMOUNT_ASKED, _AMOUNT_GIVEN),
    ("place", _PLACE_ASKED, _PLACE_GIVEN),
)


def asked_kinds(question: str) -> tuple[str, ...]:
    """The kinds of answer the question asks for, in `KINDS` order (often none)."""
    return tuple(kind for kind, asked, _ in KINDS if asked.search(question))


def gives(text: str, kinds: tuple[str, ...]) -> bool:
    """The sentence gives one of the asked kinds ("30 days from receipt", "Rs. 10", "the
    District Commission")."""
    return any(given.search(text) for kind, _, given in KINDS if kind in kinds)


def bonus(text: str, kinds: tuple[str, ...]) -> float:
    return TYPE_BONUS if kinds and gives(text, kinds) else 0.0
