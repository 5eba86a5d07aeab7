"""STREET_ADDRESS for whole Indian addresses, from the house or landmark to the PIN code.

"Flat 12, Shanti Nagar, Andheri East, Mumbai 400069", "H.No. 45, Gali No. 3, Rampur village,
Post Sitapur, Dist. Barabanki, UP - 225001", "near Hanuman mandir, Sector 15, Gurgaon,
Haryana 122001" each become one span (the street alone would leave the town and PIN behind).

A sentence is cut into pieces at commas, semicolons and spaced dashes. A piece is
address-like while its words are capitalised (or Devanagari), numbers, or address words of
india.yaml (units, localities, landmarks, short state names); a lower-case word or a
not-a-street word ("Rs", "Section", address.yaml) ends it. A chain starts at the address-like
tail of one piece and takes the address-like heads of the pieces after it. It is an address
when it holds a PIN code (six digits after a place, a second piece or "pincode"), or two or
more pieces with a unit and number, a house number, a landmark, a numbered locality
("Sector 15", "Gali No. 3") or a village word and name; or it is one piece with a unit and a
number ("H.No. 45"). A town alone ("a Lok Adalat in Mumbai", "Lucknow, Uttar Pradesh") stays:
cities are no personal data here, and the knowledge base speaks of states and courts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from service.adapters.pii.address import _settings as address_settings
from service.adapters.pii.india_cues import india_settings, words_pattern
from service.adapters.pii.lexicon import NameLexicon, UsesLexicon

ADDRESS_SCORE = 0.9
_SENTENCE = regex.compile(r"(?<=[^\s.]{5}|\d)[.?!](?=\s|$)|[?!]|\n")
_PIECE_SEPARATOR = regex.compile(r"(?<!\d),|,(?!\d)|;|\s[-–—]+\s|(?<=\p{L})[-–](?=\d{6})")
_TOKEN = regex.compile(r"[\p{L}\p{M}\d&][\p{L}\p{M}\d.'’&/-]*")
_PIN = regex.compile(r"[1-9]\d{5}")
_CASE_NUMBER = regex.compile(r"\d{1,6}[/-](?:19|20)\d\d")
_NUMBER_WORDS = frozenset({"no", "nos", "number", "नं", "नंबर", "&"})


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    key: str  # "unit", "weak_unit", "locality", "landmark", "state", "number", "word", ""

    @property
    def ok(self) -> bool:
        return bool(self.key)


class IndianAddressRecognizer(UsesLexicon, EntityRecognizer):
    """Presidio recognizer for whole Indian addresses (STREET_ADDRESS); no NLP artifacts."""

    def __init__(self, lexicon: NameLexicon | None = None) -> None:
        settings = india_settings()
        self._lexicon = lexicon
        self._units = frozenset(settings["address_units"])
        self._weak_units = frozenset(settings["address_weak_units"])
        self._localities = frozenset(settings["address_localities"])
        self._landmarks = frozenset(w for w in settings["address_landmarks"] if " " not in w)
        self._states = frozenset(settings["state_abbreviations"])
        street = address_settings(None)
        self._not_street = frozenset(
            street["not_street_names"] + street["context"] + settings["address_not_words"]
        )
        self._pin_cue = regex.compile(words_pattern(settings["pin_cues"]), regex.IGNORECASE)
        super().__init__(supported_entities=["STREET_ADDRESS"], name="IndianAddressRecognizer")

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if "STREET_ADDRESS" not in entities:
            return []
        found = []
        start = 0
        for end in [m.start() for m in _SENTENCE.finditer(text)] + [len(text)]:
            found += self._in_sentence(text, start, end)
            start = end + 1
        return [RecognizerResult("STREET_ADDRESS", a, b, ADDRESS_SCORE) for a, b in found]

    def _in_sentence(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        pieces: list[list[Token]] = []
        cursor = start
        for sep in [*_PIECE_SEPARATOR.finditer(text, start, end), None]:
            stop = sep.start() if sep else end
            pieces.append(self._tokens(text, cursor, stop))
            cursor = sep.end() if sep else end
        spans = []
        i = 0
        while i < len(pieces):
            tail = _tail(pieces[i])
            if not tail:
                i += 1
                continue
            chain = [tail]
            j = i + 1
            while j < len(pieces):
                head = _head(pieces[j])
                if not head:
                    break
                chain.append(head)
                j += 1
                if len(head) < len(pieces[j - 1]):
                    break
            if self._is_address(text, chain):
                spans.append((chain[0][0].start, chain[-1][-1].end))
                i = j
            else:
                i += 1
        return spans

    def _tokens(self, text: str, start: int, end: int) -> list[Token]:
        tokens = [
            Token(m.group(), m.start(), m.end(), self._key(m.group()))
            for m in _TOKEN.finditer(text, start, end)
        ]
        for k in range(len(tokens) - 1):  # two-word places: "Tamil Nadu", "New Delhi"
            pair = f"{tokens[k].text} {tokens[k + 1].text}".casefold()
            if pair in self.lexicon.places:
                tokens[k] = replace(tokens[k], key="word")
                tokens[k + 1] = replace(tokens[k + 1], key="word")
        return tokens

    def _key(self, word: str) -> str:
        low = word.casefold().rstrip(".")
        if _CASE_NUMBER.fullmatch(word):
            return ""  # "234/2023": a case or FIR number of a year ends the address
        if any(c.isdigit() for c in word):
            return "number"
        for key, words in (
            ("unit", self._units),
            ("weak_unit", self._weak_units),
            ("locality", self._localities),
            ("landmark", self._landmarks),
            ("state", self._states),
        ):
            if low in words:
                return key
        if low in _NUMBER_WORDS:
            return "word"
        lex = self.lexicon
        if low in lex.places and low not in self._not_street:
            return "word"
        if low in self._not_street or low in lex.stop_words or low in lex.not_names:
            return ""
        if word[0].isupper() or not word[0].isascii():
            return "word"
        return ""

    def _is_address(self, text: str, chain: list[list[Token]]) -> bool:
        tokens = [t for piece in chain for t in piece]
        for k, token in enumerate(tokens):
            if token.key == "number" and _PIN.fullmatch(token.text):
                placed = k > 0 and tokens[k - 1].key in ("word", "state", "locality")
                cued = self._pin_cue.search(text[max(0, token.start - 25) : token.start])
                if len(chain) > 1 or placed or cued:
                    return True
        if any(_unit_number(piece, ("unit",)) for piece in chain):
            return True
        if len(chain) < 2:
            return False
        first = chain[0]
        house = all(t.key == "number" for t in first) and chain[1][0].key != "number"
        return house or any(
            _unit_number(piece, ("weak_unit", "locality"))
            or (piece[0].key == "landmark" and len(piece) > 1)
            or ({t.key for t in piece} >= {"locality", "word"})
            for piece in chain
        )


def _unit_number(piece: list[Token], keys: tuple[str, ...]) -> bool:
    """A unit or locality word followed by a number: "Flat 12", "Gali No. 3", "Sector 15"."""
    seen = False
    for token in piece:
        seen = seen or token.key in keys
        if seen and token.key == "number":
            return True
    return False


def _tail(piece: list[Token]) -> list[Token]:
    """The longest run of address-like words that ends the piece."""
    k = len(piece)
    while k > 0 and piece[k - 1].ok:
        k -= 1
    return piece[k:]


def _head(piece: list[Token]) -> list[Token]:
    """The longest run of address-like words that opens the piece."""
    k = 0
    while k < len(piece) and piece[k].ok:
        k += 1
    return piece[:k]
