"""Names a cue announces, in any case, and word sequences that are never a person (person.yaml).

- After a name cue ("my name is", "mera naam", "naam hai", "S/o", "wife of", "Shri", "Smt",
  "Kumari") one to three words are a name: listed names in any case, capitalised words, and
  any word that is no everyday English or Hinglish word ("my name is guddi", "Shri ram
  avtar ji"). A stop word, a Hinglish filler ("hai", "ji", "ne"), a title or a place ends it:
  "mera naam ramesh kumar hai", "Shri ram avtar ji ki zameen".
- After "I am" / "this is" the same words count only when "from" follows: "i am deepak from
  ranchi" (not "I am worried from the start").
- A listed phrase ("Jan Dhan", "Aadhaar Seva Kendra", "Lok Adalat") is never a person, even
  where its words are listed names ("Jan").
"""

from __future__ import annotations

from dataclasses import replace

from service.adapters.pii.lexicon import NameLexicon
from service.adapters.pii.person_words import Kind, Word, everyday, uncased

_MAX_NAME = 3
_GAP = " .:,-–"  # what may sit between a cue and the name: "Smt. Savitri", "name: asha"


def ends_with(seq: list[str], cue: tuple[str, ...]) -> bool:
    return len(seq) >= len(cue) and tuple(seq[-len(cue) :]) == cue


def starts_with(seq: list[str], cue: tuple[str, ...]) -> bool:
    return tuple(seq[: len(cue)]) == cue


def drop_phrases(words: list[Word], lex: NameLexicon) -> list[Word]:
    """Words of a never-a-person phrase become ordinary words."""
    lows = [w.text.casefold() for w in words]
    firsts = {p[0] for p in lex.not_name_phrases}
    kept = list(words)
    for i, low in enumerate(lows):
        if low not in firsts:
            continue
        for phrase in lex.not_name_phrases:
            n = len(phrase)
            if tuple(lows[i : i + n]) == phrase and all(w.joined for w in words[i + 1 : i + n]):
                for k in range(i, i + n):
                    kept[k] = replace(kept[k], kind=Kind.OTHER)
    return kept


def _name_word(word: Word, lex: NameLexicon) -> bool:
    low = word.text.casefold()
    never = (lex.stop_words, lex.name_stops, lex.not_names, lex.titles, lex.relations)
    if any(low in words for words in never) or "/" in low:
        return False
    if lex.is_name(word.text):
        return True
    if low in lex.places or uncased(word.text):
        return False  # no word list of these scripts tells the everyday words from names
    return word.kind is not Kind.OTHER or not everyday(word.text, lex)


def _take(words: list[Word], i: int, lex: NameLexicon) -> int:
    """How many words from words[i] make the name after a cue (0 to 3)."""
    n = 0
    for k in range(i, min(i + _MAX_NAME, len(words))):
        if (k > i and not words[k].joined) or not _name_word(words[k], lex):
            break
        n += 1
    return n


def cue_named(words: list[Word], text: str, lex: NameLexicon) -> tuple[list[Word], set[int]]:
    """The words with cue-announced names made STRONG, and the indexes of those words."""
    promoted = list(words)
    named: set[int] = set()
    cue_ends = {c[-1] for c in (*lex.name_cues, *lex.from_cues)}
    for i in range(1, len(words)):
        if words[i - 1].text.casefold() not in cue_ends:
            continue
        if text[words[i - 1].end : words[i].start].strip(_GAP):
            continue
        before = [w.text.casefold() for w in words[max(0, i - 4) : i]]
        n = 0
        if any(ends_with(before, cue) for cue in lex.name_cues):
            n = _take(words, i, lex)
        elif any(ends_with(before, cue) for cue in lex.from_cues):
            n = _take(words, i, lex)
            if i + n >= len(words) or words[i + n].text.casefold() != "from":
                n = 0
        for k in range(i, i + n):
            promoted[k] = replace(words[k], kind=Kind.STRONG)
            named.add(k)
    return promoted, named
