"""STREET_ADDRESS from patterns: a house number, capitalised street words and a street word.

Shapes (word lists in service/config/pii/address.yaml):
- "221B Baker Street", "12 MG Road", "5 Nehru Nagar"        number, names, street type
- "Via Roma 12", "49 Rue Gafsa", "ul. Opałowa 47"           street prefix, names, number
- "Heirstraat 134", "Gamla Svedalavägen 75"                 glued street ending, number
- "Apt. 559", "Flat 4B", "P.O. Box 255"                     a unit and its number
- "Skogarlond 53", "Vabaduse 21": a capitalised word and a number, unless the word is an
  everyday English word, an acronym, a month or a not-a-name word ("Section 154",
  "CrPC 154", "March 2024") or the number a year
- "16957 Lindenhof", "Lindenhof 3-5": other number/name pairs only after an address word
  ("lives at", "address")
Pieces next to each other are merged by the detector into one span.
"""

from __future__ import annotations

from pathlib import Path

import regex
import yaml
from presidio_analyzer import Pattern, PatternRecognizer

from service.adapters.pii.lexicon import CONFIG_DIR, NameLexicon, config_words, load_lexicon

_CAP = r"(?-i:[A-ZÀ-ÖØ-Þ\u0391-\u03a9\u0410-\u042f])"  # Latin, Greek, Cyrillic capitals
_NAME = _CAP + r"[\w'’.-]*"
_JOINER = r"(?:(?:de|del|da|do|dos|das|di|della|la|le|les|du|des|van|von|der|den|y|e)[ \t]+)"
_NAMES = rf"(?:(?:{_NAME}|\d+(?:st|nd|rd|th))[ \t]+{_JOINER}?){{1,4}}"
# a house number ("12", "12/3", "221B"); never the number or year of a case ("4471/2020")
_HOUSE = (
    r"(?<![/-])(?:\d{1,6}[ \t]+)?\d{1,6}[A-Za-z]?"
    r"(?:[/-](?!(?:19|20)\d\d\b)\d{1,5}[A-Za-z]?)?(?![/-]\d)"
)
_NUMBER = r"\d{1,5}[A-Za-z]?\b(?![/.,:-]\d)\.?"


NAME_NUMBER_SCORE = 0.45
_YEAR = regex.compile(r"(?:1[89]|20)\d\d")


def _alternatives(words: list[str]) -> str:
    ordered = sorted({str(w) for w in words}, key=len, reverse=True)
    return "(?:" + "|".join(regex.escape(w).replace(r"\ ", r"[ \t]?") for w in ordered) + ")"


def street_patterns(settings: dict[str, list[str]]) -> list[Pattern]:
    """The shapes that carry a street word, a prefix, a glued ending or a unit."""
    types = _alternatives(settings["street_types"])
    prefixes = _alternatives(settings["street_prefixes"])
    suffixes = _alternatives(settings["street_suffixes"])
    units = _alternatives(settings["units"])
    weak_units = _alternatives(settings["weak_units"])
    # "flat 3 saal late", "room 2 din": a number followed by a count is no unit number
    count = (
        rf"(?![ \t]+{_alternatives(settings.get('counts', []))}\b)"
        if settings.get("counts")
        else ""
    )
    return [
        Pattern("Number street type", rf"\b{_HOUSE},?[ \t]+{_NAMES}{types}\b\.?", 0.8),
        Pattern(
            "Prefix street number",
            rf"(?<!\w){prefixes}[ \t]+{_JOINER}?{_NAMES}{_NUMBER}",
            0.8,
        ),
        Pattern(
            "Number prefix street",
            rf"\b{_HOUSE}[ \t]+{prefixes}[ \t]+{_JOINER}?{_NAME}(?:[ \t]+{_JOINER}?{_NAME}){{0,3}}",
            0.8,
        ),
        Pattern(
            "Glued street number",
            rf"(?:{_HOUSE}[ \t]+)?(?:{_NAME}[ \t]+){{0,2}}"
            rf"(?={_CAP})[\w'’-]*{suffixes}[ \t]+{_NUMBER}",
            0.8,
        ),
        Pattern("Unit", rf"(?<!\w){units}\.?[ \t]*#?[ \t]*\d[\w/-]*+{count}", 0.45),
        Pattern("Weak unit", rf"(?<!\w){weak_units}\.?[ \t]*#?[ \t]*\d[\w/-]*+{count}", 0.1),
    ]


def name_number_patterns() -> list[Pattern]:
    """Bare "<Name> <number>" (checked against word lists) and context-only shapes."""
    return [
        Pattern(
            "Name number",
            rf"(?:\b{_HOUSE}[ \t]+)?\b{_NAME}(?:[ \t]+{_NAME}){{0,2}}[ \t]+{_NUMBER}",
            NAME_NUMBER_SCORE,
        ),
        Pattern("Number names", rf"\b{_HOUSE}[ \t]+{_NAME}(?:[ \t]+{_NAME}){{0,3}}", 0.1),
    ]


def _settings(path: Path | None) -> dict[str, list[str]]:
    loaded = yaml.safe_load((path or CONFIG_DIR / "address.yaml").read_text(encoding="utf-8"))
    return {key: config_words(loaded, key) for key in loaded}


class StreetAddressRecognizer(PatternRecognizer):
    """STREET_ADDRESS with a street word, prefix, glued ending or unit: "12 MG Road"."""

    def __init__(self, config_path: Path | None = None) -> None:
        settings = _settings(config_path)
        super().__init__(
            supported_entity="STREET_ADDRESS",
            patterns=street_patterns(settings),
            context=settings["context"],
        )


class StreetNumberRecognizer(PatternRecognizer):
    """STREET_ADDRESS as "<Name> <number>" ("Skogarlond 53"), checked against word lists."""

    def __init__(self, lexicon: NameLexicon | None = None, config_path: Path | None = None) -> None:
        settings = _settings(config_path)
        self._lexicon = lexicon
        self._not_street = set(settings["not_street_names"])
        super().__init__(
            supported_entity="STREET_ADDRESS",
            patterns=name_number_patterns(),
            context=settings["context"],
        )

    @property
    def lexicon(self) -> NameLexicon:
        if self._lexicon is None:
            self._lexicon = load_lexicon()
        return self._lexicon

    def invalidate_result(self, pattern_text: str) -> bool:
        """Everyday words, acronyms, months and years are not streets: "Section 154"."""
        words = regex.findall(r"[^\W\d_][\w'’.-]*|\d+[A-Za-z]?", pattern_text)
        if _YEAR.fullmatch(words[-1]):
            return True
        return all(self._plain_word(w) for w in words if not w[0].isdigit())

    def _plain_word(self, word: str) -> bool:
        low = word.casefold().rstrip(".")
        uppers = sum(c.isupper() for c in word)
        return (
            uppers > 1
            or "'" in low
            or "’" in low
            or low in self._not_street
            or low in self.lexicon.not_names
            or low in self.lexicon.stop_words
            or self.lexicon.is_everyday(low)
        )
