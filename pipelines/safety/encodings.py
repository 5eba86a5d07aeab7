"""Hidden text in a message: base64, hex, percent and \\u escapes, and invisible Unicode carriers.

`decoded_payloads` returns readable text hidden in encodings, to be checked again like a message.
`invisible_payload` reads text smuggled in Unicode tag characters (U+E0000-E007F) or variation
selectors; emoji tag sequences (the England, Scotland and Wales flags) are not smuggling.
`unscrambled` undoes ROT13, reversed text and words split by separators ("ig-no-re",
"dis_regard"); spaced and dotted letters ("i g n o r e", "i.g.n.o.r.e") are joined by
normalize, and `hidden_words` finds the runs the writer split or respelled. A form is
kept only if it shows a cue word (safety.yaml `decode_cues`: ignore,
instructions, prompt, ...) that the text itself does not hold, so ordinary messages cost one
translate and one reversal, and at most three forms a message are read, of at most
`max_chars` characters each.
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse
from collections.abc import Callable
from functools import lru_cache

_BASE64 = r"(?<![\w+/=-])[A-Za-z0-9+/_-]{%d,}={0,2}(?![\w+/=-])"
_HEX = r"(?i)(?<![0-9a-z])(?:0x|\\x)?[0-9a-f]{2}(?:[\s:,-]?(?:0x|\\x)?[0-9a-f]{2}){%d,}(?![0-9a-z])"
_PERCENT = re.compile(r"(?:%[0-9a-fA-F]{2}){6,}")
_UNICODE_ESCAPE = re.compile(r"(?:\\u[0-9a-fA-F]{4}){4,}")
_EMOJI_TAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]{2,7}\U000e007f")
_TAGS = re.compile("[\U000e0000-\U000e007f]")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
_LATIN_WORD = re.compile(r"[a-z]+")
_INNER_SEPARATOR = re.compile(r"(?<=[a-zA-Z])[-_.·*/|~+](?=[a-zA-Z])")
# "f.o.r.g.e", "n a k l i", "/i/g/n/o/r/e/": four or more letters, one separator repeated
# ("I.P.C." and "U.S.A." have three letters)
_SPLIT_LETTERS = re.compile(r"(?i)(?<![a-z])[a-z]([ .\-_/*|·~+])(?:[a-z]\1){2,}[a-z](?![a-z])")
# "n4kli", "p@ssp0rt", "r00lz": a digit standing for a letter between letters; a run of three
# digits is a number ("MH14AB1234"), not a spelling
_LEET_WORD = re.compile(
    r"(?i)(?<![\w@$])(?=[a-z0-9@$]*[a-z][013457]+[a-z])(?![a-z0-9@$]*\d{3})[a-z0-9@$]+"
)
_LEET_DIGIT = re.compile(r"[013457]")
LEET_WORDS = 2  # one such word may be a name or a handle


def decoded_payloads(text: str, *, min_base64: int, min_hex: int) -> list[tuple[str, str]]:
    """(encoding, readable decoded text) for each encoded run that decodes to readable text."""
    found: list[tuple[str, str]] = []
    runs = _sized(_BASE64, min_base64).findall(text)
    for run in runs + (["".join(runs)] if len(runs) > 1 else []):
        decoded = _from_base64(run)
        if decoded is not None:
            found.append(("base64", decoded))
    for run in _sized(_HEX, max(min_hex // 2 - 1, 1)).findall(text):
        digits = re.sub(r"(?i)0x|\\x|[^0-9a-f]", "", run)
        decoded = _readable(bytes.fromhex(digits)) if len(digits) % 2 == 0 else None
        if decoded is not None:
            found.append(("hex", decoded))
    for run in _PERCENT.findall(text) if "%" in text else ():
        found.append(("percent", urllib.parse.unquote(run, errors="replace")))
    for run in _UNICODE_ESCAPE.findall(text) if "\\u" in text else ():
        found.append(("unicode_escape", run.encode("ascii").decode("unicode_escape")))
    return found


def unscrambled(text: str, cues: frozenset[str], *, max_chars: int) -> list[tuple[str, str]]:
    """(transform, text) for each of rot13, reversed and joined that reveals a new cue word."""
    text = text[:max_chars]
    if not cues or not _LATIN_WORD.search(lowered := text.lower()):
        return []
    own = set(_LATIN_WORD.findall(lowered))
    found = []
    # rot13 and reversal map each word of the text to a word of the form: look the text's own
    # words up among the cues' rot13 and reversed spellings before building either form
    for transform, change, changed_cues in _word_maps(cues):
        if any(change(word) not in own for word in own & changed_cues):
            found.append((transform, change(text)))
    if _INNER_SEPARATOR.search(text):
        joined = _INNER_SEPARATOR.sub("", text)
        if not (set(_LATIN_WORD.findall(joined.lower())) - own).isdisjoint(cues):
            found.append(("joined", joined))
    return found


def hidden_words(text: str, *, max_chars: int) -> list[str]:
    """The runs a writer split or respelled to hide them from a filter: letters split by one
    repeated separator ("f.o.r.g.e", "n a k l i"), and words in leetspeak when there are two
    or more ("b4t4 n4kli"). Normalisation reads them as words in the word form."""
    text = text[:max_chars]
    found = [m.group(0) for m in _SPLIT_LETTERS.finditer(text)]
    leet = _LEET_WORD.findall(text) if _LEET_DIGIT.search(text) else []
    return found + (leet if len(leet) >= LEET_WORDS else [])


def _rot13(text: str) -> str:
    return text.translate(_ROT13)


def _reversed(text: str) -> str:
    return text[::-1]


@lru_cache(maxsize=4)
def _word_maps(
    cues: frozenset[str],
) -> tuple[tuple[str, Callable[[str], str], frozenset[str]], ...]:
    return tuple(
        (name, change, frozenset(map(change, cues)))
        for name, change in (("rot13", _rot13), ("reversed", _reversed))
    )


@lru_cache(maxsize=16)
def _sized(template: str, size: int) -> re.Pattern[str]:
    return re.compile(template % size)


def invisible_payload(text: str) -> tuple[str, str] | None:
    """(carrier, hidden text) if the message smuggles text in invisible characters."""
    if text.isascii():
        return None
    visible_flags = _EMOJI_TAGS.sub("", text)
    tags = _TAGS.findall(visible_flags)
    if tags:
        return "unicode_tags", "".join(chr(ord(t) - 0xE0000) for t in tags if ord(t) > 0xE001F)
    run = _SELECTORS.search(text)
    if run and len(run.group(0)) >= 8:
        data = bytes(_selector_byte(c) for c in run.group(0))
        return "variation_selectors", data.decode("utf-8", errors="replace")
    return None


def _selector_byte(char: str) -> int:
    code = ord(char)
    return code - 0xFE00 if code <= 0xFE0F else code - 0xE0100 + 16


def _from_base64(run: str) -> str | None:
    body = run.rstrip("=").replace("-", "+").replace("_", "/")
    if len(body) % 4 == 1 or not re.search(r"[0-9+/]|[a-z][A-Z]|[A-Z]{2}[a-z]", body):
        return None
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(data)


def _readable(data: bytes) -> str | None:
    """The decoded text if it is mostly printable words, else None (random bytes, hashes)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 4:
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    letters = sum(c.isalpha() or c == " " for c in text)
    return text if printable >= 0.95 * len(text) and letters >= 0.6 * len(text) else None
