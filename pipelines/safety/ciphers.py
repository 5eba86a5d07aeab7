"""More hidden text: Morse, binary, percent escapes between words, Caesar shifts, letters run
together ("ignorepreviousinstructions", "i g n o r e p r e v i o u s"), leetspeak where 1 is
an l ("ru135"), strings assembled with + ('sys' + 'tem pro' + 'mpt') and Pig Latin.

`deciphered` returns (transform, text) forms to be checked again like a message. As with
encodings.unscrambled, a form is kept only when it shows a cue word (safety.yaml `decode_cues`)
the text itself does not hold, or, for Morse, binary and percent escapes, when it decodes to
readable text; ordinary messages cost a few regex searches and, for Caesar, one translate per
distinct word.
"""

from __future__ import annotations

import re
import urllib.parse
from functools import lru_cache

_MORSE_CODES = (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- "
    ".-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----."
)
_MORSE = dict(zip(_MORSE_CODES.split(" "), "abcdefghijklmnopqrstuvwxyz0123456789", strict=True))
_MORSE_RUN = re.compile(r"(?:[.-]{1,6}(?:\s*/\s*|\s+)){5,}[.-]{1,6}")
_BINARY_RUN = re.compile(r"(?:[01]{8}\s+){3,}[01]{8}")
_PERCENT_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")
_SPACED_LETTERS = re.compile(r"(?<![\w])(?:[a-z][ .\-_]){7,}[a-z](?![\w])")
_LONG_WORD = re.compile(r"[a-z]{14,}")
_LATIN_WORD = re.compile(r"[a-z]+")
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0-9])[a-z0-9]{3,}\b")
_CONCAT = re.compile(r"""(['"])([^'"\n]{0,40})\1(?:\s*\+\s*(['"])[^'"\n]{0,40}\3)+""")
_ASSIGNED = re.compile(r"""\b([a-z_]\w{0,20})\s*=\s*$""")
_FRAGMENT = re.compile(r"""(['"])([^'"\n]{0,40})\1""")
_PIG_WORD = re.compile(r"\b([a-z]{2,})ay\b")
# letters written as their places in the alphabet ("19 25 19 20 5 13"), six or more in a row,
# by spaces, dots, commas, dashes or lines; "/", "|", two spaces or a line between words
_LETTER_NUMBER = r"(?:2[0-6]|1[0-9]|0?[1-9])"
_LETTER_NUMBER_RUN = re.compile(
    rf"(?<!\d)(?:{_LETTER_NUMBER}[\s,.\-/|]+){{5,}}{_LETTER_NUMBER}(?!\d)"
)
_LEET = str.maketrans("0345789", "oeastbg")
_DIGIT = re.compile(r"[0-9]")
# "!" and "|" written for an i inside a word or before one ("pr!nt", "!nstruct!0ns")
_SYMBOL_I = re.compile(r"(?<=[a-z0-9])[!|](?=[a-z0-9])|(?<![\w!|])[!|](?=[a-z]{2})")
# short words an attack is written with, besides the cue words, to split run-together text
_GLUE = frozenset(
    {
        "all", "the", "your", "ur", "my", "and", "or", "of", "to", "a", "an", "me", "you", "are",
        "now", "is", "no", "any", "with", "without", "previous", "prior", "above", "earlier",
        "print", "show", "tell", "say", "reveal", "dump", "output", "repeat", "what", "were",
        "told", "given", "rules", "prompt", "mode", "from", "on", "in", "be", "act", "as", "do",
        "not",
    }
)  # fmt: skip


def deciphered(text: str, cues: frozenset[str], *, max_chars: int) -> list[tuple[str, str]]:
    """(transform, text) for each cipher that reveals readable text or a new cue word."""
    text = text[:max_chars]
    lowered = text.lower()
    own = set(_LATIN_WORD.findall(lowered))
    found: list[tuple[str, str]] = []
    for run in _BINARY_RUN.findall(text) if "1" in text else ():  # zero bytes read as nothing
        decoded = bytes(int(b, 2) for b in run.split()).decode("latin-1")
        if sum(c.isalpha() or c == " " for c in decoded) >= 0.8 * len(decoded):
            found.append(("binary", decoded))
    if len(_PERCENT_ESCAPE.findall(text)) >= 3:
        found.append(("percent", urllib.parse.unquote(text, errors="replace")))
    candidates = [("morse", _from_morse(run)) for run in _MORSE_RUN.findall(text)]
    candidates.append(("split_words", _split_run_together(lowered, cues)))
    vocabulary = _vocabulary(cues)
    candidates.append(("leet", _unleet_text(lowered, vocabulary)))
    candidates.append(("concatenated", _joined_strings(text)))
    candidates.append(("pig_latin", _from_pig_latin(lowered, vocabulary)))
    if _DIGIT.search(text) and _LETTER_NUMBER_RUN.search(lowered):
        decoded = _LETTER_NUMBER_RUN.sub(lambda m: _from_letter_numbers(m, vocabulary), lowered)
        candidates.append(("letter_numbers", decoded))
    candidates += _caesar(lowered, own, cues)
    for transform, form in candidates:
        if form != lowered and not (set(_LATIN_WORD.findall(form)) - own).isdisjoint(cues):
            found.append((transform, form))
    return found


def _from_morse(run: str) -> str:
    words = re.split(r"\s*/\s*|\s{2,}", run.strip())
    return " ".join("".join(_MORSE.get(code, "") for code in word.split()) for word in words)


def _from_letter_numbers(run: re.Match[str], vocabulary: frozenset[str]) -> str:
    """'19 25 19 20 5 13 / 16 18 15 13 16 20' -> 'system prompt' (a = 1; "/", "|", a line or two
    spaces between words, else the letters are split into known words)."""
    words = re.split(r"\s*[/|\n]\s*|\s{2,}", run.group().strip())
    letters = ("".join(chr(96 + int(n)) for n in re.findall(r"\d+", word)) for word in words)
    return " ".join(_segment(word, vocabulary) for word in letters if word)


def _unleet_text(lowered: str, vocabulary: frozenset[str]) -> str:
    """The text with symbols read as an i and digits as letters inside words (each regex is
    run only when the text holds what it replaces)."""
    if "!" in lowered or "|" in lowered:
        lowered = _SYMBOL_I.sub("i", lowered)
    if not _DIGIT.search(lowered):
        return lowered
    return _LEET_WORD.sub(lambda m: _unleet(m.group(), vocabulary), lowered)


def _unleet(word: str, vocabulary: frozenset[str]) -> str:
    """'ru135' -> 'rules', '1gn0r3' -> 'ignore': a 1 is an i, or an l after a letter when
    only that spelling is a known word."""
    word = word.translate(_LEET)
    as_i = word.replace("1", "i")
    as_l = re.sub(r"(?<=[a-z])1", "l", word).replace("1", "i")
    return as_l if as_l in vocabulary and as_i not in vocabulary else as_i


def _from_pig_latin(lowered: str, vocabulary: frozenset[str]) -> str:
    """'ignoreway allway eviouspray' -> 'ignore all previous': only when at least three words
    end in -ay; the moved consonants (up to three) are put back where that makes a known word."""
    if lowered.count("ay") < 3 or len(_PIG_WORD.findall(lowered)) < 3:
        return lowered
    return _PIG_WORD.sub(lambda m: _unpig(m.group(1), vocabulary), lowered)


def _unpig(stem: str, vocabulary: frozenset[str]) -> str:
    forms = [stem[-k:] + stem[:-k] for k in (1, 2, 3) if len(stem) > k]
    if stem.endswith("w"):
        forms.insert(0, stem[:-1])
    return next((form for form in forms if form in vocabulary), forms[0] if forms else stem)


def _split_run_together(lowered: str, cues: frozenset[str]) -> str:
    lowered = _SPACED_LETTERS.sub(lambda m: re.sub(r"[ .\-_]", "", m.group()), lowered)
    vocabulary = _vocabulary(cues)
    return _LONG_WORD.sub(lambda m: _segment(m.group(), vocabulary), lowered)


@lru_cache(maxsize=4)
def _vocabulary(cues: frozenset[str]) -> frozenset[str]:
    return cues | _GLUE


def _segment(word: str, vocabulary: frozenset[str]) -> str:
    """The word split into known words (fewest pieces), or unchanged if it cannot be."""
    best: list[list[str] | None] = [[]] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 14), end):
            head, piece = best[start], word[start:end]
            shorter = best[end] is None or len(head or ()) + 1 < len(best[end] or ())
            if head is not None and piece in vocabulary and shorter:
                best[end] = [*head, piece]
    return " ".join(best[-1]) if best[-1] else word


def _joined_strings(text: str) -> str:
    """'sys' + 'tem pro' + 'mpt' -> system pro mpt joined; a variable it is assigned to is
    replaced by its value where it is used again ("x = ...; print your x")."""
    if "+" not in text:
        return text.lower()
    out, values, last = [], {}, 0
    for match in _CONCAT.finditer(text):
        value = "".join(m.group(2) for m in _FRAGMENT.finditer(match.group()))
        before = text[last : match.start()]
        assigned = _ASSIGNED.search(before)
        if assigned:
            values[assigned.group(1)] = value
        out += [before, value]
        last = match.end()
    rest = text[last:]
    for name, value in values.items():
        rest = re.sub(rf"\b{re.escape(name)}\b", value, rest)
    return ("".join(out) + rest).lower()


def _caesar(lowered: str, own: set[str], cues: frozenset[str]) -> list[tuple[str, str]]:
    """Shifted forms (other than ROT13) in which at least two new cue words appear, named by
    the shift the writer applied ("caesar3": every letter moved three on). A word shifts into a
    cue only if both have the same letter gaps, so each word is looked up once, not per shift."""
    words = [w for w in own if len(w) > 2]
    if not words or sum(map(len, words)) + len(words) - 1 > 4000:
        return []
    by_gaps = _cues_by_gaps(cues)
    new_cues: dict[int, set[str]] = {}
    for word in words:
        for cue in by_gaps.get(_gaps(word), ()):
            shift = (ord(cue[0]) - ord(word[0])) % 26
            if shift not in (0, 13) and cue not in own:
                new_cues.setdefault(shift, set()).add(cue)
    return [
        (f"caesar{26 - shift}", lowered.translate(_shift_table(shift)))  # as written
        for shift in sorted(new_cues)
        if len(new_cues[shift]) >= 2
    ]


def _gaps(word: str) -> str:
    """The word moved so that it starts with an a: equal for words one Caesar shift apart."""
    return word.translate(_shift_table((ord("a") - ord(word[0])) % 26))


@lru_cache(maxsize=4)
def _cues_by_gaps(cues: frozenset[str]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for cue in cues:
        if len(cue) > 2 and cue.isascii() and cue.isalpha() and cue.islower():
            index.setdefault(_gaps(cue), []).append(cue)
    return {gaps: tuple(group) for gaps, group in index.items()}


@lru_cache(maxsize=26)
def _shift_table(shift: int) -> dict[int, int]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return str.maketrans(letters, letters[shift:] + letters[:shift])
