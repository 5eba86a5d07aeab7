"""DATE_OF_BIRTH: a full date (day, month and year) near "born", "DOB", "date of birth".

A date alone scores below the detector's threshold; Presidio's context enhancer lifts it
when one of the context words stands within five words before it. So "born on 3/29/1982"
and "DOB: 1982-03-29" are masked, "the hearing is on 12/05/2024" is not.
"""

from __future__ import annotations

from presidio_analyzer import Pattern, PatternRecognizer

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_NUM_MONTH = r"(?:0?[1-9]|1[0-2])"
_YEAR = r"(?:19|20)\d\d"
_SEP = r"[/.-]"

_DAY_OR_MONTH = rf"(?:{_DAY}|{_NUM_MONTH})"

DATE_PATTERNS = [
    Pattern(
        "d/m/y or m/d/y", rf"\b{_DAY_OR_MONTH}{_SEP}{_DAY_OR_MONTH}{_SEP}(?:{_YEAR}|\d\d)\b", 0.1
    ),
    Pattern("y-m-d", rf"\b{_YEAR}{_SEP}{_NUM_MONTH}{_SEP}{_DAY}\b", 0.1),
    Pattern("d month y", rf"\b{_DAY}[ \t]+(?:of[ \t]+)?{_MONTH},?[ \t]+{_YEAR}\b", 0.1),
    Pattern("month d, y", rf"\b{_MONTH}[ \t]+{_DAY},?[ \t]+{_YEAR}\b", 0.1),
]

CONTEXT = [
    "born", "birth", "dob", "d.o.b", "birthday", "birthdate", "bday", "b'day",
    "janm", "janam", "janamdin", "जन्म", "जन्मतिथि",  # Hindi: "janm tithi", "जन्म तिथि"
]  # fmt: skip


class DateOfBirthRecognizer(PatternRecognizer):
    """Presidio pattern recognizer for DATE_OF_BIRTH (needs a context word to count)."""

    def __init__(self) -> None:
        super().__init__(supported_entity="DATE_OF_BIRTH", patterns=DATE_PATTERNS, context=CONTEXT)
