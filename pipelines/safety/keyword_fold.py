"""The spelling fold of keyword matching (pure): one glossary entry for the many spellings of a
romanised Hindi or Devanagari word.

Hinglish has no standard spelling ("zamanat", "jamaanat", "zamaanat"; "vakil", "wakeel") and
Devanagari is written with or without nuktas and long vowels, and inflects by its last vowel
("थाना", "थाने", "थानों"). `fold_word` maps each spelling to one form, word by word, so the
number and order of words never change (`fold_text` keeps everything between words as it is):

- Latin letters: ph -> f, ee -> i, oo -> u, w -> v, z -> j, q -> k, doubled letters single, and
  an h after a final vowel dropped ("sulah" -> "sula").
- Devanagari: nukta dropped (ज़ -> ज), long i/u as short (ी -> ि, ू -> ु, ई -> इ, ऊ -> उ),
  chandrabindu as anusvara, and a final inflecting vowel sign (ा, े, ै, ो, ौ, with its nasal
  mark) dropped when two consonants remain ("थाना", "थाने", "थानों" -> "थान"; "पति" stays).

Short keys are acronyms ("fir", "rti", "pil") and English: `foldable` keeps keys of fewer than
`MIN_FOLDED` letters out of the fold, so "pill" (folded "pil") never expands to a PIL.
"""

from __future__ import annotations

import re
import unicodedata

MIN_FOLDED = 4  # letters a key needs to be matched through the fold

_INDIC_MARKS = "\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963"
WORD_CHAR = rf"[\w{_INDIC_MARKS}]"  # vowel signs and virama belong to a word, though not \w
WORD = re.compile(rf"(?:[^\W_]|[{_INDIC_MARKS}])+")
_LATIN_STEPS = (
    (re.compile("ph"), "f"),
    (re.compile("ee"), "i"),
    (re.compile("oo"), "u"),
    (re.compile("w"), "v"),
    (re.compile("z"), "j"),
    (re.compile("q"), "k"),
    (re.compile(r"([a-z])\1+"), r"\1"),
    (re.compile(r"(?<=..[aeiou])h$"), ""),
)
_DEVANAGARI = str.maketrans({"\u093c": None, "ी": "ि", "ू": "ु", "ई": "इ", "ऊ": "उ", "ँ": "ं"})
_FINAL_VOWEL = re.compile("[\u093e\u0947\u0948\u094b\u094c]\u0902?$")  # ा े ै ो ौ, nasal
_CONSONANT = re.compile("[\u0915-\u0939]")


def fold_word(word: str) -> str:
    """One word (letters, digits and Indic vowel signs) in its folded form; never empty when
    the word is not."""
    word = unicodedata.normalize("NFD", word.casefold())  # क़ -> क + nukta
    if word.isascii():
        for pattern, replacement in _LATIN_STEPS:
            word = pattern.sub(replacement, word)
        return word
    word = word.translate(_DEVANAGARI)
    stem = _FINAL_VOWEL.sub("", word)
    if len(_CONSONANT.findall(stem)) >= 2:
        word = stem
    return unicodedata.normalize("NFC", word)


def fold_text(text: str) -> str:
    """Every word of `text` folded; spaces and punctuation between words unchanged."""
    return WORD.sub(lambda match: fold_word(match.group()), text)


def foldable(key: str) -> bool:
    """Whether a key is matched through the fold too: any key not in ASCII, and ASCII keys
    with enough letters to be a word rather than an acronym."""
    return not key.isascii() or sum(char.isalpha() for char in key) >= MIN_FOLDED
