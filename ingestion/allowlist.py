"""Terms the core knowledge base is about, so the PII masker leaves them alone.

A public figure or a product the corpus discusses ("Dr. B. R. Ambedkar", "Lok Adalat", "NALSA")
is not the user's personal data. Built at ingestion from the documents' text with three rules:

1. acronyms and product-style words: a token with two or more capitals ("FIR", "CrPC",
   "DigiLocker"; not "e-Daakhil");
2. capitalised runs of two to eight words, which may hold initials ("B. R."), titles ("Dr.",
   "Justice") and joining words ("of", "and"); a run's first word is dropped when it opens a
   sentence if it is a common word (seen in lower case, never capitalised inside a sentence:
   "Contact the DLSA" gives no term, "Legal Aid ..." stays), and so are openers ("The", "If");
3. a name that starts with a title is also kept without it ("B. R. Ambedkar").

Bare surnames are deliberately not added: "Mehta" or "Gupta" alone is far more likely to be a
user's own name than a reference to the corpus. Markdown headings and ALL-CAPS title lines are
skipped (their terms recur in the body). Matching is the masker's job: compare `normalise()`d
strings, i.e. case-insensitively with collapsed whitespace.

Consumers should compare case-insensitively with collapsed whitespace (`normalise`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*\.?|\S")
_TITLES = {"dr.", "mr.", "mrs.", "ms.", "shri", "smt.", "sri", "justice", "prof.", "adv."}
_JOINERS = {"of", "and", "for", "the", "de"}
_OPENER_WORDS = (
    "the a an this that these those if in on at for to from by with under when where while as "
    "it its is are was be no not do does any every each some all our your their his her my "
    "what who how why which can may must should will after before during also but or so"
)
_OPENERS = set(_OPENER_WORDS.split())
_BREAKERS = {"rs.", "no.", "sec.", "art.", "e.g.", "i.e."}  # abbreviations that end a run
_MAX_WORDS = 8


def normalise(term: str) -> str:
    return " ".join(term.split()).casefold()


def _prose_lines(text: str) -> list[str]:
    """Lines worth reading: not Markdown headings, not ALL-CAPS titles."""
    lines = []
    for line in text.splitlines():
        letters = [c for c in line if c.isalpha()]
        shouting = len(letters) > 3 and sum(c.isupper() for c in letters) > 0.8 * len(letters)
        if line.strip() and not line.lstrip().startswith("#") and not shouting:
            lines.append(line)
    return lines


def _acronyms(line: str) -> set[str]:
    found = set()
    for match in re.finditer(r"[A-Za-z][A-Za-z0-9-]*", line):
        word = match.group().strip("-")
        if 2 <= len(word) <= 12 and sum(c.isupper() for c in word) >= 2:
            found.add(word)
    return found


def _initial_or_title(word: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]\.", word)) or word.lower() in _TITLES


def _runs(line: str) -> list[tuple[list[str], bool]]:
    """Capitalised word runs (joiners allowed inside) and whether each opens a sentence."""
    runs: list[tuple[list[str], bool]] = []
    current: list[str] = []
    opens, sentence_start = True, True
    for word in _TOKEN.findall(line) + [""]:
        if word.lower() in _BREAKERS:
            word = ","
        if word and (word[:1].isupper() or (current and word.lower() in _JOINERS)):
            if not current:
                opens = sentence_start
            current.append(word)
            sentence_start = False
            if word.endswith(".") and not _initial_or_title(word):
                runs.append((current, opens))  # a full stop after a word ends the sentence
                current, sentence_start = [], True
            continue
        if current:
            runs.append((current, opens))
            current = []
        sentence_start = not word or word[-1] in ".!?:-*>|" or word[:1].isdigit()
    return runs


def _name(
    run: list[str], opens_sentence: bool, capitalised_inside: set[str], lowercase: set[str]
) -> str | None:
    """The term a run names, or None. A sentence's first word is dropped when it is a common
    word: seen in lower case and never capitalised inside a sentence ("Contact the DLSA")."""
    first = run[0]
    common = first.lower() in lowercase and first.lower() not in capitalised_inside
    if opens_sentence and common and not _initial_or_title(first):
        run = run[1:]
    while run and (run[0].lower() in _OPENERS or run[0].lower() in _JOINERS):
        run = run[1:]
    while run and run[-1].lower() in _JOINERS:
        run = run[:-1]
    words = [w if _initial_or_title(w) else w.rstrip(".") for w in run]
    return " ".join(words) if 2 <= len(words) <= _MAX_WORDS else None


def build_allowlist(texts: Iterable[str]) -> set[str]:
    """Names and terms occurring in the core knowledge base (see the module doc for the rules)."""
    lines = [line for text in texts for line in _prose_lines(text)]
    runs = [run for line in lines for run in _runs(line)]
    capitalised_inside = {
        w.lower() for run, opens in runs for i, w in enumerate(run) if i > 0 or not opens
    }
    lowercase = {w for line in lines for w in re.findall(r"\b[a-z][a-z'’-]*", line)}
    terms: set[str] = set()
    for line in lines:
        terms |= _acronyms(line)
    for run, opens in runs:
        name = _name(run, opens, capitalised_inside, lowercase)
        if name:
            terms.add(name)
            first, _, rest = name.partition(" ")
            if first.lower() in _TITLES:
                terms.add(rest)  # "Dr. B. R. Ambedkar" -> "B. R. Ambedkar"
    return terms


def save_allowlist(path: Path, terms: Iterable[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": 1, "terms": sorted(set(terms), key=str.casefold)}
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    temporary.replace(path)  # readers never see a half-written file


def load_allowlist(path: Path) -> set[str]:
    """The saved terms; an absent file is an empty allowlist (nothing ingested yet)."""
    if not path.exists():
        return set()
    data = json.loads(path.read_text(encoding="utf-8"))
    terms = data.get("terms", []) if isinstance(data, dict) else data
    return {str(t) for t in terms}
