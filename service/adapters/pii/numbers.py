"""Card and phone numbers in the shapes Presidio's own recognizers miss.

- Cards: Presidio's regex knows only some issuer prefixes and lengths, so Mastercard's 2-series,
  12-digit Maestro and 19-digit Visa slip through. Here any 12-19 digit number with a card
  issuer's first digit counts, and the Luhn check decides (a failed check drops the match).
  Right after a card cue ("card", "debit card", "card no", "कार्ड"; india.yaml) any 13-19
  digits are a card, Luhn or not: a mistyped card number is still the user's personal data,
  and masking it costs the answer nothing (a deliberate product decision).
- Phones: `phonenumbers` only accepts numbers valid in a few regions, so "+41 36 507 52 91"
  or "9822 3749" slip through. Here a number with a leading "+" or an area code in
  parentheses is a phone; grouped digits (8-15 in all) are one too, unless they look like a
  date, a year range or a US SSN; a bare run of 7-12 digits needs a context word ("call").
  A number and a year joined by a slash ("FIR number 0456/2024", "case 1234/2019") is how
  Indian case and FIR numbers are written, so `phonenumbers` may not call it a phone.
"""

from __future__ import annotations

import re

from presidio_analyzer import Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import CreditCardRecognizer, PhoneRecognizer

from service.adapters.pii.india_cues import CuedPattern, CuedRecognizer, india_settings

_EXT = r"(?:\s?(?:x|ext\.?)\s?\d{1,5})?"
_END = r"(?!\w|[ .,/:-]\d)"  # the number does not go on
_START = r"(?<![\w./:+-])(?<!\d,)"


class AnyCardRecognizer(CreditCardRecognizer):
    """CREDIT_CARD: 12-19 digits (spaces or dashes allowed) passing the Luhn check."""

    PATTERNS = [
        Pattern(
            "Card 13-19 digits",
            _START + r"(?:[2-6]\d|18|8[12])(?:[ -]?\d){11,17}" + _END,
            0.3,
        ),
        Pattern("Maestro 12 digits", _START + r"(?:50|5[6-9]|6\d)(?:[ -]?\d){10}" + _END, 0.3),
    ]

    def __init__(self) -> None:
        super().__init__(patterns=self.PATTERNS)


def cued_card_recognizer() -> CuedRecognizer:
    """CREDIT_CARD: 13-19 digits within a few words after a card cue, whatever the Luhn check."""
    number = r"(?<![\w.,/+-])(?<!\d\s)\d(?:[ -]?\d){12,18}(?![\w/-]|[.,]\d|\s\d)"
    return CuedRecognizer(
        "CREDIT_CARD",
        [CuedPattern("Card after a cue", number, 0.0, 0.85)],
        india_settings()["card_cues"],
        before=30,
        after=0,
    )


_D, _M = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
_DATE = re.compile(
    rf"\d{{4}}([-./]){_M}\1{_D}|{_D}([-./]){_M}\2\d{{2,4}}|{_M}([-./]){_D}\3\d{{2,4}}"
)
_CASE_NUMBER = re.compile(r"\d{1,6}\s?/\s?(?:19|20)\d\d")  # a number and its year
_YEARS = re.compile(r"(?:1[89]|20)\d\d(?:[ .-]+(?:1[89]|20)\d\d)+")
_SSN = re.compile(r"\d{3}-\d{2}-\d{4}")


class LoosePhoneRecognizer(PatternRecognizer):
    """PHONE_NUMBER shapes that phonenumbers' validity check rejects."""

    PATTERNS = [
        Pattern(
            "International",
            r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{1,5}){2,6}" + _EXT + _END,
            0.6,
        ),
        Pattern(
            "Area code",
            r"(?<!\w)\(\d{2,5}\)[ .-]?\d{2,5}(?:[ .-]?\d{2,5}){0,3}" + _EXT + _END,
            0.6,
        ),
        Pattern(
            "Grouped, 8 digits or more",
            _START + r"(?=(?:[ .-]?\d){8})\d{2,5}(?:[ .-]\d{2,8}){1,4}" + _EXT + _END,
            0.5,
        ),
        Pattern("Grouped, short", _START + r"\d{2,4}(?:[ .-]\d{2,4}){1,3}" + _EXT + _END, 0.15),
        Pattern("Bare", _START + r"\d{7,12}" + _END, 0.2),
    ]
    CONTEXT = [
        "phone", "mobile", "call", "tel", "cell", "contact", "whatsapp", "number", "reach",
        "fax", "office", "desk", "sms", "text", "dial", "ring", "registered", "answering",
        "message", "messages",
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__(
            supported_entity="PHONE_NUMBER", patterns=self.PATTERNS, context=self.CONTEXT
        )

    def invalidate_result(self, pattern_text: str) -> bool:
        core = re.sub(r"\s?(?:x|ext\.?)\s?\d{1,5}$", "", pattern_text)
        digits = sum(c.isdigit() for c in core)
        if not 6 <= digits <= 15 or len(set(re.sub(r"\D", "", core))) == 1:
            return True
        grouped = not core.startswith(("+", "("))
        return grouped and any(p.fullmatch(core) for p in (_DATE, _YEARS, _SSN))


class ValidPhoneRecognizer(PhoneRecognizer):
    """Presidio's `phonenumbers` recognizer, less case and FIR numbers ("0456/2024")."""

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts = None,  # type: ignore[assignment]  # Presidio's default
    ) -> list[RecognizerResult]:
        found = super().analyze(text, entities, nlp_artifacts)
        return [r for r in found if not _CASE_NUMBER.fullmatch(text[r.start : r.end])]
