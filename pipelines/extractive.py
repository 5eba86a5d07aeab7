"""The answer without a chat model: the passages' sentences closest to the question, cited.

The passages are read as units that can stand alone (pipelines/extractive_units.py): whole
sentences, list items and glossary entries; never a heading, a label, a glossary stub or a
fragment ending in a colon. Only the `CANDIDATES` units a cheap lexical pre-selection finds most
promising are embedded (pipelines/extractive_prefilter.py); the embedding then ranks them, and
pipelines/extractive_steps.py orders the lines (a list's items together, in order; a how-to
question answered with its steps). A sentence of the kind of answer the question asks for (a
span of time, an amount, a place: pipelines/extractive_types.py) gets a small lead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Required, TypedDict, Unpack

from pipelines.extractive_prefilter import preselect
from pipelines.extractive_steps import arrange, asks_how, render_lines
from pipelines.extractive_types import asked_kinds, bonus
from pipelines.extractive_units import Sentence, split_units
from pipelines.ports import Embedder

__all__ = [
    "CANDIDATES",
    "EXTRACTIVE_LABEL",
    "Sentence",
    "SentenceChoice",
    "choose_sentences",
    "close_passages",
    "cosine",
    "distinct",
    "extractive_answer",
    "pick_sentences",
    "rank_units",
    "render_extractive",
    "split_sentences",
]

EXTRACTIVE_LABEL = "Extracted from the knowledge base (no language model was used):"
# Sentences embedded per answer (~8 ms each on MiniLM). On 22 sample-KB questions and 56 Python
# FAQ ones, 12 kept the same best sentence in 100% / 95% of answers (all embedded: the baseline).
CANDIDATES = 12
# A passage of another document this far (cosine) below the best source gives no sentence. On
# the 301 `dev` sample-KB questions it changed 61 answers; a blind pairwise reading preferred
# the new answer in 28, the old in 12 (21 alike). 0.10 changed 87.
FAR_PASSAGE = 0.15


def split_sentences(passages: Sequence[str]) -> list[Sentence]:
    """The units of each passage that can stand alone, in reading order (see extractive_units)."""
    return split_units(passages)


def distinct(sentences: Sequence[Sentence]) -> list[Sentence]:
    """Each text once, where it first occurs (a copy of a passage, a core text re-uploaded)."""
    kept: dict[str, Sentence] = {}
    for sentence in sentences:
        kept.setdefault(sentence.scored_text, sentence)
    return list(kept.values())


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def pick_sentences(
    sentences: Sequence[Sentence],
    vectors: Sequence[Sequence[float]],
    query_vector: Sequence[float],
    *,
    count: int,
    kinds: tuple[str, ...] = (),
) -> list[Sentence]:
    """The `count` sentences most similar to the query, best first; ties keep passage order.
    A sentence of the kind of answer asked for (`kinds`, pipelines/extractive_types.py) gets
    a small lead."""
    scored = sorted(
        enumerate(sentences),
        key=lambda item: (
            -(cosine(vectors[item[0]], query_vector) + bonus(item[1].text, kinds)),
            item[0],
        ),
    )
    return [sentence for _, sentence in scored[: max(count, 0)]]


def render_extractive(picked: Sequence[Sentence], *, numbered: bool = False) -> str:
    return "\n".join([EXTRACTIVE_LABEL, *render_lines(picked, numbered=numbered)])


async def rank_units(
    passages: Sequence[str],
    query_vector: Sequence[float],
    embedder: Embedder,
    *,
    count: int,
    query: str = "",
    expansion: str = "",
    matched: Sequence[Sequence[str]] = (),
    candidates: int = CANDIDATES,
    scores: Sequence[float] = (),
    documents: Sequence[str] = (),
    uploads: Sequence[bool] = (),
) -> tuple[list[Sentence], list[Sentence]]:
    """The shortlist ranked best first (one embed_documents call), and every unit in order.

    `query` is the masked question (without placeholders) and `expansion` what the keyword map
    appended to it; `matched[p]` holds the texts of the children the search matched in passage
    p + 1, best first. They choose the `candidates` units worth embedding.
    """
    passages = close_passages(passages, scores, documents, uploads)
    units = distinct(split_sentences(passages))
    if not units or not query_vector or count <= 0:
        return [], units
    kept = preselect(
        [u.scored_text for u in units],
        [u.citation for u in units],
        query,
        matched,
        limit=max(candidates, count),
        expansion=expansion,
    )
    shortlist = [units[i] for i in kept]
    vectors = await embedder.embed_documents([u.scored_text for u in shortlist])
    kinds = asked_kinds(query)
    ranked = pick_sentences(shortlist, vectors, query_vector, count=len(shortlist), kinds=kinds)
    return ranked, units


class SentenceChoice(TypedDict, total=False):
    """The keyword arguments of `rank_units`, for what passes them on."""

    count: Required[int]
    query: str
    expansion: str
    matched: Sequence[Sequence[str]]
    candidates: int
    scores: Sequence[float]
    documents: Sequence[str]
    uploads: Sequence[bool]


def close_passages(
    passages: Sequence[str],
    scores: Sequence[float],
    documents: Sequence[str],
    uploads: Sequence[bool] = (),
) -> list[str]:
    """The passages an answer's sentences may come from: a passage of another document than
    the best one's, scoring `FAR_PASSAGE` or more below the best, is left out (its place kept,
    so citations still number the sources); it stays a source. The user's own uploads
    (`uploads[i]`) always stay: they were put there for this user's questions. A score of 0 or
    less, or none, is no measure (a passage the keyword search alone found): it is never the
    best, and such a passage of another document stays only when the fusion ranked it
    first."""
    known = [i for i, score in enumerate(scores) if math.isfinite(score) and score > 0]
    if len(scores) != len(passages) or len(documents) != len(passages) or not known:
        return list(passages)
    best = max(known, key=scores.__getitem__)
    own = list(uploads) if len(uploads) == len(passages) else [False] * len(passages)
    return [
        text
        if own[i]
        or documents[i] == documents[best]
        or (i in known and round(scores[best] - scores[i], 6) < FAR_PASSAGE)
        or (i == 0 and i not in known)  # ranked first by the fusion without a dense score
        else ""
        for i, text in enumerate(passages)
    ]


async def choose_sentences(
    passages: Sequence[str],
    query_vector: Sequence[float],
    embedder: Embedder,
    **choice: Unpack[SentenceChoice],
) -> list[Sentence]:
    """The `count` units closest to the query, best first (see `rank_units`)."""
    ranked, _ = await rank_units(passages, query_vector, embedder, **choice)
    return ranked[: max(choice["count"], 0)]


async def extractive_answer(
    passages: Sequence[str],
    query_vector: Sequence[float],
    embedder: Embedder,
    **choice: Unpack[SentenceChoice],
) -> str | None:
    """The rendered answer (see `rank_units`, `arrange`); None when the passages hold no unit."""
    ranked, units = await rank_units(passages, query_vector, embedder, **choice)
    query = choice.get("query", "")
    how_to = query if asks_how(query) else ""
    kinds = asked_kinds(query)
    picked, numbered = arrange(ranked, units, count=choice["count"], how_to=how_to, kinds=kinds)
    return render_extractive(picked, numbered=numbered) if picked else None
