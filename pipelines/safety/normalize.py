"""Normal forms of a message, built once and shared by the detectors.

`flat`:  NFKC, invisible characters removed, casefolded, accents stripped, look-alike Cyrillic
         and Greek letters mapped to Latin when the text has Latin letters too; punctuation and
         line breaks kept.
`words`: `flat` with letters spelled apart joined ("i-d-i-o-t"), leetspeak decoded ("1d10t"),
         masked letters resolved ("f*ck"), English contractions expanded, punctuation removed,
         elongations shortened ("stuuupid"): lowercase words separated by single spaces.
`clauses`: the word form of each clause (split at , . ! ? ; : and line breaks).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_HOMOGLYPHS = str.maketrans("аеорсухіјѕԁɡԛԝһӏκνοαερτυχιδı", "aeopcyxijsdgqwhlkvoaeptuxidi")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})
_SPACES = re.compile(r"[^\S\n]{2,}")  # runs kept as two spaces: word gaps in "y o u  a r e"
_LINES = re.compile(r"[^\S\n]*\n\s*")
_SPELLED = re.compile(
    r"(?<![^\W_])[^\W_](?P<sep>[-._*~/+])(?:[^\W_](?P=sep)){1,}[^\W_](?![^\W_])"
    r"|(?<![^\W_])[^\W_] (?:[^\W_] ){2,}[^\W_](?![^\W_])"
    r"|(?:(?<=  )|^)[^\W_](?: [^\W_])+(?=  |$)"  # "y o u  a r e": single letters, wide gaps
    r"|(?<![^\W_.])[^\W_]\.[^\W_]\.(?![^\W_])"  # two letters with their dots: "m.c.", "u.s."
    # Indic syllables (a letter with its vowel signs) spelled apart: "क-मी-ने", "ह.रा.मी"
    r"|(?<![\w\u0900-\u0dff])[\u0900-\u0963\u0970-\u0dff]{1,3}(?P<isep>[-._*~/+])"
    r"(?:[\u0900-\u0963\u0970-\u0dff]{1,3}(?P=isep))+[\u0900-\u0963\u0970-\u0dff]{1,3}"
    r"(?![\w\u0900-\u0dff])"
)
_SEPARATORS = re.compile(r"[-._*~/+\s]")
_LEET_SYMBOL = re.compile(
    r"(?<=[a-z])(?:[@$!|+]|\$\$)(?=[a-z])"  # "b!tch", "a$$hole", "bi+ch"
    r"|(?<![\w$@])[$@](?=[a-z]{2})"  # "$hit", "@sshole"
    r"|(?<=[a-z])\$\$(?![\w$])"  # "a$$"
)
_LEET_WORD = re.compile(r"\b(?=\w*[a-z]\w*[a-z])(?=\w*[013457])\w+\b")
_LEET = str.maketrans("013457@$!|+", "oieastasiit")
_HASH_MASK = re.compile(r"(?<=[a-z])#(?=[a-z])")
_MASKED = re.compile(r"(?<![\w*])[a-z][a-z*]*\*[a-z*]*(?![\w*])")
# "चु***या": Devanagari letters masked; the stars stand for a few letters, not one each
_MASKED_INDIC = re.compile(
    r"(?<![\u0900-\u097f*])[\u0900-\u097f]+\*+[\u0900-\u097f]+(?![\u0900-\u097f*])"
)
# "बे व कू फ़": Devanagari syllables spelled apart by spaces, joined only into a lexicon word
_INDIC_SPACED = re.compile(
    r"(?<![\u0900-\u097f])(?:[\u0900-\u097f]{1,2} ){2,}[\u0900-\u097f]{1,2}(?![\u0900-\u097f])"
)
_LONG_VOWELS = str.maketrans("\u0940\u0942", "\u093f\u0941")  # ी ू read as ि ु
_CONTRACTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bain't\b"), "am not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"\b(i|you|he|she|we|they)'d\b"), r"\1 would"),
    (re.compile(r"\blet's\b"), "let us"),
    (re.compile(r"\b(he|she|it|that|what|who|there|here|where|how|when|why)'s\b"), r"\1 is"),
    (re.compile(r"\b([a-z]|qu|dell|all|dall|nell|sull)'(?=\w)"), r"\1 "),  # l'a, qu'il, dell'
    (re.compile(r"'"), ""),
]
_URL = re.compile(r"(?:https?://|www\.)\S+")  # addresses carry no words of their own
_CLAUSE = re.compile(r"[,.!?;:\n\u3002\u00bf\u00a1\u0964\u0965]+")  # incl. the danda ।
# Indic vowel signs are marks, not \w: kept inside words ("कुत्ते" stays one word)
_NON_WORD = re.compile(r"[^\w\u0900-\u0963\u0966-\u0dff]+")
_ELONGATED = re.compile(r"(\w)\1\1+")


@dataclass(frozen=True)
class Prepared:
    raw: str
    flat: str
    words: str
    clauses: tuple[str, ...]
    # what a detector decided about this text, so that one call does not decide it twice
    # (the greeting is asked by the abuse rules and by the route)
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tokens(self) -> list[str]:
        return self.words.split()


def flatten(text: str) -> str:
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()
    if not text.isascii():
        if re.search(r"[a-z]", text):
            text = text.translate(_HOMOGLYPHS)
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
        text = text.translate(_APOSTROPHES).replace("\u0901", "\u0902")  # chandrabindu
    return _LINES.sub("\n", _SPACES.sub("  ", text.replace("\t", " "))).strip()


def prepare(text: str, vocab: frozenset[str], by_length: Mapping[int, tuple[str, ...]]) -> Prepared:
    """All normal forms of `text`; `vocab` (lexicon words) guides the repair of obfuscations."""
    flat = flatten(text)
    spelled = _SPELLED.sub(_join_spelled, flat)
    if any(symbol in spelled for symbol in "@$!|+"):
        spelled = _LEET_SYMBOL.sub(lambda m: m.group(0).translate(_LEET), spelled)
    if any(digit in spelled for digit in "013457"):
        spelled = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), spelled)
    if "#" in spelled:  # "c#utiya": a masked letter, like "*" (not "#metoo", not "C#")
        spelled = _HASH_MASK.sub("*", spelled)
    if "*" in spelled:
        spelled = _MASKED.sub(_unmasker(by_length), spelled)
        if not spelled.isascii():
            spelled = _MASKED_INDIC.sub(_indic_unmasker(by_length), spelled)
    if not spelled.isascii() and vocab:
        spelled = _INDIC_SPACED.sub(lambda m: _join_known(m.group(0).split(), vocab), spelled)
    if "http" in spelled or "www." in spelled:
        spelled = _URL.sub(" ", spelled)
    for pattern, replacement in _CONTRACTIONS:
        if "'" not in spelled:
            break
        spelled = pattern.sub(replacement, spelled)
    clauses = tuple(c for c in (_words(part, vocab) for part in _CLAUSE.split(spelled)) if c)
    return Prepared(raw=text, flat=flat, words=" ".join(clauses), clauses=clauses)


def words_of(text: str) -> str:
    """The word form of a list entry or a keyword (no lexicon repairs)."""
    return prepare(text, frozenset(), {}).words


def _join_spelled(match: re.Match[str]) -> str:
    return _SEPARATORS.sub("", match.group(0))  # Indic vowel signs are \W: keep them


def _unmasker(by_length: Mapping[int, tuple[str, ...]]) -> Callable[[re.Match[str]], str]:
    def unmask(match: re.Match[str]) -> str:
        token = match.group(0)
        shape = re.compile(token.replace("*", "[a-z]"))
        for word in by_length.get(len(token), ()):
            if shape.fullmatch(word):
                return word
        return token

    return unmask


def _join_known(syllables: list[str], vocab: frozenset[str]) -> str:
    """The longest runs of three or more syllables that spell a lexicon word, joined."""
    out, start = [], 0
    while start < len(syllables):
        for end in range(len(syllables), start + 2, -1):
            if "".join(syllables[start:end]) in vocab:
                out.append("".join(syllables[start:end]))
                start = end
                break
        else:
            out.append(syllables[start])
            start += 1
    return " ".join(out)


def _indic_unmasker(by_length: Mapping[int, tuple[str, ...]]) -> Callable[[re.Match[str]], str]:
    """A lexicon word that starts and ends with the unmasked letters, about as long."""

    def unmask(match: re.Match[str]) -> str:
        token = match.group(0)
        head, tail = (
            part.translate(_LONG_VOWELS)
            for part in (token[: token.index("*")], token[token.rindex("*") + 1 :])
        )
        for length in (len(token), len(token) - 1, len(token) + 1, len(token) - 2, len(token) + 2):
            for word in by_length.get(length, ()):
                folded = word.translate(_LONG_VOWELS)
                if (
                    folded.startswith(head)
                    and folded.endswith(tail)
                    and len(folded) > len(head) + len(tail)
                ):
                    return word
        return token

    return unmask


def _words(clause: str, vocab: frozenset[str]) -> str:
    words = _NON_WORD.sub(" ", clause).strip()
    if _ELONGATED.search(words):
        words = " ".join(_shorten(w, vocab) for w in words.split())
    return words


def _shorten(word: str, vocab: frozenset[str]) -> str:
    """'stuuupid' -> 'stupid', 'gooood' -> 'good': runs of 3+ letters become 2, or 1 if known."""
    if not _ELONGATED.search(word):
        return word
    double = _ELONGATED.sub(r"\1\1", word)
    single = _ELONGATED.sub(r"\1", word)
    if double in vocab or single not in vocab:
        return double
    return single
