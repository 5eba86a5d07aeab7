"""How much of the question the top passage covers: answer-gate signals that do not depend on
the corpus's score scale (pure).

A question the knowledge base answers shares its content words with the passage that answers
it, above all its names and numbers; a question from elsewhere, even when its nearest passage
has a fair cosine, leaves most of them out. Terms are the sparse encoder's (stop words dropped,
light stemming: pipelines/ports/sparse.py), so "complaints" covers "complaint".

- `coverage`: the share of the question's distinct terms found in the top parent's text.
- `named_coverage`: the same over its named terms only (numbers, words written with a capital
  after the first word, acronyms); 1.0 when the question names nothing (nothing to miss).

No inverse document frequencies: the index applies them inside Qdrant (`Modifier.IDF`) and the
question path never sees per-term statistics. On the dev splits of bench/eval_gate.py, weighting
by the true corpus IDF (computed offline) added under one point of out-of-scope abstention over
these two.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator, Mapping

from pipelines.fusion import Fusion
from pipelines.ports.sparse import tokens
from pipelines.retrieval import parent_text

_WORD = re.compile(r"[^\W_]+")


def named_terms(question: str) -> frozenset[str]:
    """The terms of the question's numbers, capitalised words (not the first) and acronyms."""
    words = _WORD.findall(unicodedata.normalize("NFKC", question))
    named: set[str] = set()
    for n, word in enumerate(words):
        if word.isdigit() or (n > 0 and word[:1].isupper()) or (len(word) > 1 and word.isupper()):
            named.update(tokens(word))
    return frozenset(named)


def covered(terms: Collection[str], passage: Collection[str], *, empty: float) -> float:
    """The share of `terms` found in `passage`; `empty` when there are no terms."""
    if not terms:
        return empty
    return sum(term in passage for term in terms) / len(terms)


def _runs_with(text: str, part: str) -> Iterator[str]:
    """Each run of word characters in `text` that contains `part`."""
    start = text.find(part)
    while start != -1:
        left, right = start, start + len(part)
        while left > 0 and (text[left - 1].isalnum() or text[left - 1] == "_"):
            left -= 1
        while right < len(text) and (text[right].isalnum() or text[right] == "_"):
            right += 1
        yield text[left:right]
        start = text.find(part, right)


def terms_found(asked: Collection[str], passage: str) -> frozenset[str]:
    """`set(asked) & set(tokens(passage))`, without encoding the whole passage: a word the
    encoder turns into a term contains that term (or, for "-ies" -> "-y", the term without its
    "y"), so only the runs of word characters around such a substring are encoded."""
    text = unicodedata.normalize("NFKC", passage).lower()
    found = set()
    for term in asked:
        part = term[:-1] if term.endswith("y") and len(term) > 1 else term
        if any(term in tokens(run) for run in _runs_with(text, part)):
            found.add(term)
    return frozenset(found)


def coverage_signals(question: str, passage: str) -> Mapping[str, float]:
    """`coverage` and `named_coverage` of the question by the passage (see the module)."""
    asked = frozenset(tokens(question))
    found = terms_found(asked, passage)
    return {
        "coverage": covered(asked, found, empty=0.0),
        "named_coverage": covered(named_terms(question) & asked, found, empty=1.0),
    }


def gate_signals(fusion: Fusion, question: str) -> dict[str, float]:
    """Every named signal the answer gate may use: the fusion's, and the coverage of the
    question (the masked search text) by the fused top parent. The `retrieve` node, the fit of
    `warden eval retrieval --calibrate` (through the node) and bench/eval_gate.py use this one
    definition."""
    passage = parent_text(fusion.best[0]) if fusion.best else ""
    return {**fusion.signals, **coverage_signals(question, passage)}
