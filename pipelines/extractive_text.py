"""What may stand alone in an extractive answer: sentence ends, headings, labels, glossary stubs.

Pure string tests, no I/O. A heading, a bare label ("Note:"), a glossary stub ("RTI: Right to
Information under the RTI Act, 2005.") or a fragment ending in a colon never becomes an answer
line; a real sentence that merely ends with a citation, holds "Section 154(1):" inside, or is a
short numbered step is kept.
"""

from __future__ import annotations

import re

MIN_CHARS = 20
MIN_WORDS = 5
MAX_HEADING_CHARS = 80  # the chunker's title lines are as short (ingestion/chunking.py)
_TERMINAL = ".!?"
# "Rs. 10", "Dr. B. R. Ambedkar", "Lalita Kumari v. Government": a stop that ends no sentence
_ABBREVIATION_LIST = (
    "rs dr mr mrs ms no nos st v vs e.g i.e sr jr art arts sec govt ltd prof smt shri sh cf viz"
    " approx"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_LIST.split())
_STOP = re.compile(r"[.!?][\"'’”)\]]*\s+")
_VERB_LIST = (
    "is are was were be been being am has have had can cannot could may might must shall should"
    " will would do does did who which that where whose whom when"
)
_VERB_WORDS = frozenset(_VERB_LIST.split())
_PAST_FORM = re.compile(r"[a-z]{3,}ed$")
_WORD = re.compile(r"[A-Za-z][A-Za-z’'-]*")
# "RTI:", "Zero FIR:", "Article 21A:", "112:": up to four words before the colon
_LABEL = re.compile(r"^([A-Z0-9][\w’'&/().,-]*(?: [\w’'&/().,-]+){0,3}):\s+(\S.*)$", re.S)
_ACRONYM = re.compile(r"\b[A-Z0-9]*[A-Z][A-Z0-9]+\b")
# "(Section 173 BNSS)", "(2013)", "[1]": a reference closing a sentence that lacks a stop
_TRAILING_CITATION = re.compile(r"\s*(\[\d+\]|\([^()]*(\d|Section|Article|v\.)[^()]*\))\s*$")


def split_prose(text: str) -> list[str]:
    """Sentences of one paragraph (whitespace folded); abbreviations and initials keep theirs."""
    flat = " ".join(text.split())
    pieces, start = [], 0
    for stop in _STOP.finditer(flat):
        rest = flat[stop.end() : stop.end() + 1]
        if not rest or not (rest.isupper() or rest.isdigit() or rest in "\"'“‘(*"):
            continue
        before = flat[start : stop.start()].rsplit(" ", 1)[-1].lower().lstrip("(\"'")
        initial = len(before) == 1 and before.isalpha()
        if flat[stop.start()] == "." and (before in _ABBREVIATIONS or initial):
            continue
        pieces.append(flat[start : stop.end()].strip())
        start = stop.end()
    pieces.append(flat[start:].strip())
    return [p for p in pieces if p]


def has_verb(text: str) -> bool:
    """A finite verb or relative clause, as far as a word list can tell (no tagger here)."""
    words = [w.lower() for w in _WORD.findall(text)]
    return any(w in _VERB_WORDS or _PAST_FORM.search(w) for w in words)


def ends_sentence(text: str) -> bool:
    stripped = text.rstrip().rstrip("\"'’”)]*")
    return bool(stripped) and stripped[-1] in _TERMINAL


def ends_with_colon(text: str) -> bool:
    return text.rstrip().rstrip("*").endswith(":")


def is_heading_line(line: str) -> bool:
    """A title on a line of its own: Markdown '#', or short with no stop, colon or comma at its
    end. A short sentence that lacks only its stop after a citation ("... (Section 173 BNSS)")
    is not one; a line holding a sentence end inside is not one either."""
    text = line.strip()
    if text.startswith("#"):
        return True
    if not text or len(text) > MAX_HEADING_CHARS or ends_sentence(text) or text[-1] in ":,;":
        return False
    if not (text[0].isupper() or text[0].isdigit() or text[0] in "*\"'“"):
        return False
    if re.search(r"[.!?]\s+\S", text):
        return False
    body = _TRAILING_CITATION.sub("", text)
    return not (body != text and has_verb(body) and len(body.split()) >= MIN_WORDS - 1)


def is_label_stub(text: str) -> bool:
    """'TERM: a few words' naming the term without saying anything about it: a glossary stub
    ("CCPA: Central Consumer Protection Authority.") or a bare label ("Note: see below")."""
    match = _LABEL.match(text.strip())
    if match is None:
        return False
    label, body = match.groups()
    if has_verb(body):
        return False
    words = len(body.split())
    return words <= 8 or (bool(_ACRONYM.search(label)) and words <= 12)


def stands_alone(text: str) -> bool:
    """Long enough, whole, and content: no heading, no label, no stub, no trailing colon."""
    text = text.strip()
    if len(text) < MIN_CHARS or len(text.split()) < MIN_WORDS:
        return False
    if text.startswith("#") or ends_with_colon(text) or is_label_stub(text):
        return False
    return not is_heading_line(text)


def plain(text: str) -> str:
    """Markdown emphasis dropped ("**no fee**" -> "no fee"); the words are the same."""
    return re.sub(r"(\*\*|__)(.+?)\1", r"\2", text).replace("*", "")


def as_clause(text: str) -> str:
    """A list item read after its intro: its closing ';', ',' or '.' and a last 'and'/'or' go."""
    clause = text.strip().rstrip(";,.").strip()
    return re.sub(r";?\s+(and|or)$", "", clause)


def lower_first(text: str) -> str:
    """'Send the ...' -> 'send the ...' after an intro; 'SP can ...', 'I4C runs ...' stay."""
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first[1:].islower() and first.isalpha() else text
