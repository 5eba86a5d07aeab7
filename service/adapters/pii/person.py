"""PERSON without a model: name lists, capitalisation, titles and cue words.

A message is cut into words; neighbouring name-like words (capitalised, or any case in a
message written all in lower case) form a run. A run is a person when
- a title or cue comes right before it ("Mr. Rao", "said Rao", "Hi Asha"), a cue right
  after it ("Rao said"), or it opens a line followed by a colon (a transcript);
- it holds a listed name that is not also an everyday word ("Priya", "Priya Shah");
- it holds an initial between words ("Bulat A. Butusov"), or two or more unlisted
  capitalised words that are not everyday words and not a known place ("Teake Tuininga");
- it is two or more listed names that are also everyday words, capitalised, not opening a
  sentence ("... with Rose Baker").
A run next to a place word ("thana Kotwali", "village Rampur", "Tis Hazari court") is a place.
A lone unlisted capitalised word is a person only when listed beside one ("Kleist and
Arnold"). A lone everyday name ("Will", "May") needs a cue. After a name cue ("my name is",
"mera naam", "S/o", "Smt") a name counts in any case, and phrases such as "Jan Dhan" are
never a person (person_cues.py). Scripts without capitals (Devanagari, Tamil, Arabic...):
only their listed names (Faker's lists) are name-like, and a person is two listed names in a
row or a listed name after a cue or title ("मेरे पति सुनील कुमार", "मेरा नाम पूजा", "श्री
राम प्रसाद"); a lone name without a cue ("सुनील ने मुझे मारा") is not found.
"""

from __future__ import annotations

import re

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from service.adapters.pii.lexicon import NameLexicon, UsesLexicon
from service.adapters.pii.person_cues import cue_named, drop_phrases, ends_with, starts_with
from service.adapters.pii.person_words import Kind, Word, name_runs, split_words

_LIST_JOIN = re.compile(r",\s*|\s+(?:and|or|&)\s+|,\s+(?:and|or)\s+")
_OPENS_SENTENCE = re.compile(r"(?:^|[.!?\n\"“(]\s*)$")
_MAX_RUN = 4


class PersonNameRecognizer(UsesLexicon, EntityRecognizer):
    """Presidio recognizer for PERSON from name lists; needs no NLP artifacts."""

    def __init__(self, lexicon: NameLexicon | None = None, language: str = "en") -> None:
        self._lexicon = lexicon
        super().__init__(supported_entities=["PERSON"], supported_language=language)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if "PERSON" not in entities:
            return []
        return [
            RecognizerResult("PERSON", start, end, score)
            for start, end, score in find_names(text, self.lexicon)
        ]


def _cued(words: list[Word], i: int, j: int, text: str, lex: NameLexicon) -> bool:
    """A title or cue before words[i:j], a cue after them, or 'Name:' opening a line."""
    before = [w.text.casefold() for w in words[max(0, i - 3) : i]]
    gap = text[words[i - 1].end : words[i].start].strip() if i else "-"
    if before and before[-1] in lex.titles and gap in ("", "."):
        return True
    if gap in ("", ":", ",") and any(ends_with(before, c) for c in lex.cues):
        return True
    after = [w.text.casefold() for w in words[j : j + 2]]
    tail = text[words[j - 1].end : words[j].start] if j < len(words) else "."
    if tail.strip() == "" and any(starts_with(after, c) for c in lex.post_cues):
        return True
    if i == 0 and j == 1 and text[words[0].end : words[0].end + 1] == ",":
        place = words[0].text.casefold() in lex.places  # "Lucknow, Uttar Pradesh ..."
        return words[0].kind in (Kind.STRONG, Kind.PROPER) and not place  # "Juljan, can I"
    line_start = text.rfind("\n", 0, words[i].start) + 1
    opens_line = text[line_start : words[i].start].strip() == ""
    speaker = all(w.kind in (Kind.STRONG, Kind.PROPER, Kind.INITIAL) for w in words[i:j])
    return speaker and opens_line and text[words[j - 1].end : words[j - 1].end + 1] == ":"


def _score(words: list[Word], i: int, j: int, text: str, lex: NameLexicon) -> float:
    run = words[i:j]
    kinds = [w.kind for w in run]
    if all(k is Kind.INITIAL for k in kinds):
        return 0.0
    if _placed(words, i, j, lex) or text[run[0].start : run[-1].end].casefold() in lex.places:
        return 0.0
    if _cued(words, i, j, text, lex):
        return 0.85
    if Kind.STRONG in kinds and (len(run) > 1 or run[0].text[0].isupper()):
        return 0.75 if len(run) > 1 else 0.6
    proper, weak = kinds.count(Kind.PROPER), kinds.count(Kind.WEAK)
    if Kind.INITIAL in kinds[1:] and proper + weak >= 2:
        return 0.6
    if proper >= 2 or (proper and weak):
        return 0.5
    opens = _OPENS_SENTENCE.search(text[: run[0].start]) is not None
    capitalised = all(w.text[0].isupper() for w in run)  # in lower case, everyday names need a cue
    if (
        weak >= 2
        and capitalised
        and not opens
        and not any(w.text.casefold() in lex.stop_words for w in run)
    ):
        return 0.5
    return 0.0


def _placed(words: list[Word], i: int, j: int, lex: NameLexicon) -> bool:
    """A place word right before or after the run ("thana Kotwali", "Tis Hazari court")."""
    before = [w.text.casefold() for w in words[max(0, i - 2) : i]]
    after = [w.text.casefold() for w in words[j : j + 2]]
    return any(ends_with(before, p) for p in lex.place_before) or any(
        starts_with(after, p) for p in lex.place_after
    )


def _listed_beside(
    words: list[Word], runs: list[tuple[int, int]], scores: list[float], text: str
) -> None:
    """A lone capitalised word listed beside a person is one too: "Kleist and Arnold"."""
    changed = True
    while changed:
        changed = False
        for k, (i, j) in enumerate(runs):
            if scores[k] or j - i > 1 or words[i].kind not in (Kind.PROPER, Kind.WEAK):
                continue
            for n in (k - 1, k + 1):
                if 0 <= n < len(runs) and scores[n]:
                    left, right = sorted((runs[k], runs[n]))
                    gap = text[words[left[1] - 1].end : words[right[0]].start]
                    if _LIST_JOIN.fullmatch(gap):
                        scores[k], changed = 0.5, True
                        break


def _repeated(
    words: list[Word], found: list[tuple[int, int, float]]
) -> list[tuple[int, int, float]]:
    """Every other mention of a found name's parts: "Sonoka ... Sonoka Miki"."""
    parts = {
        w.text.casefold()
        for w in words
        if len(w.text) > 1 and any(a <= w.start and w.end <= b for a, b, _ in found)
    }
    return [
        (w.start, w.end, 0.6)
        for w in words
        if w.text.casefold() in parts
        and w.kind is not Kind.OTHER
        and not any(a <= w.start and w.end <= b for a, b, _ in found)
    ]


def find_names(text: str, lex: NameLexicon) -> list[tuple[int, int, float]]:
    words, named = cue_named(drop_phrases(split_words(text, lex), lex), text, lex)
    runs = [(i, min(j, i + _MAX_RUN)) for i, j in name_runs(words)]
    scores = [
        0.85 if named.intersection(range(i, j)) else _score(words, i, j, text, lex) for i, j in runs
    ]
    _listed_beside(words, runs, scores, text)
    found = [
        (words[i].start, words[j - 1].end, score)
        for (i, j), score in zip(runs, scores, strict=True)
        if score
    ]
    return found + _repeated(words, found)
