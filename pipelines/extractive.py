"""The answer without a chat model: the passages' sentences closest to the question, cited.

Only the `CANDIDATES` sentences a cheap lexical pre-selection finds most promising are embedded
(pipelines/extractive_prefilter.py); the embedding then ranks them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Required, TypedDict, Unpack

from pipelines.extractive_prefilter import preselect
from pipelines.ports import Embedder

EXTRACTIVE_LABEL = "Extracted from the knowledge base (no language model was used):"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*•\d])")
_MIN_CHARS = 20
_MIN_WORDS = 5
_NOT_PROSE = re.compile(r"^\s*(#|>|\|)")  # headings, quoted notes, table rows
_MAX_CHARS = 400
_MAX_PER_PASSAGE = 30
# Sentences embedded per answer (~8 ms each on MiniLM). On 22 sample-KB questions and 56 Python
# FAQ ones, 12 kept the same best sentence in 100% / 95% of answers (all embedded: the baseline).
CANDIDATES = 12


@dataclass(frozen=True)
class Sentence:
    text: str
    citation: int  # 1-based number of the passage it comes from


def split_sentences(passages: Sequence[str]) -> list[Sentence]:
    """Sentences of each passage, on one line each; fragments too short to stand alone dropped."""
    found: list[Sentence] = []
    for number, passage in enumerate(passages, start=1):
        prose = "\n".join(line for line in passage.splitlines() if not _NOT_PROSE.match(line))
        pieces = (" ".join(p.split()).lstrip("-*• ") for p in _SENTENCE_END.split(prose))
        kept = [p[:_MAX_CHARS] for p in pieces if _stands_alone(p)]
        found.extend(Sentence(text, number) for text in kept[:_MAX_PER_PASSAGE])
    return found


def distinct(sentences: Sequence[Sentence]) -> list[Sentence]:
    """Each text once, where it first occurs (a copy of a passage, a core text re-uploaded)."""
    kept: dict[str, Sentence] = {}
    for sentence in sentences:
        kept.setdefault(sentence.text, sentence)
    return list(kept.values())


def _stands_alone(piece: str) -> bool:
    return len(piece) >= _MIN_CHARS and len(piece.split()) >= _MIN_WORDS


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
) -> list[Sentence]:
    """The `count` sentences most similar to the query, best first; ties keep passage order."""
    scored = sorted(
        enumerate(sentences), key=lambda item: (-cosine(vectors[item[0]], query_vector), item[0])
    )
    return [sentence for _, sentence in scored[: max(count, 0)]]


def render_extractive(picked: Sequence[Sentence]) -> str:
    lines = [f"- {s.text} [{s.citation}]" for s in picked]
    return "\n".join([EXTRACTIVE_LABEL, *lines])


async def choose_sentences(
    passages: Sequence[str],
    query_vector: Sequence[float],
    embedder: Embedder,
    *,
    count: int,
    query: str = "",
    expansion: str = "",
    matched: Sequence[Sequence[str]] = (),
    candidates: int = CANDIDATES,
) -> list[Sentence]:
    """The `count` sentences closest to the query, best first, from one embed_documents call.

    `query` is the masked question (without placeholders) and `expansion` what the keyword map
    appended to it; `matched[p]` holds the texts of the children the search matched in passage
    p + 1, best first. They choose the `candidates` sentences worth embedding.
    """
    sentences = distinct(split_sentences(passages))
    if not sentences or not query_vector or count <= 0:
        return []
    kept = preselect(
        [s.text for s in sentences],
        [s.citation for s in sentences],
        query,
        matched,
        limit=max(candidates, count),
        expansion=expansion,
    )
    shortlist = [sentences[i] for i in kept]
    vectors = await embedder.embed_documents([s.text for s in shortlist])
    return pick_sentences(shortlist, vectors, query_vector, count=count)


class SentenceChoice(TypedDict, total=False):
    """The keyword arguments of `choose_sentences`, for what passes them on."""

    count: Required[int]
    query: str
    expansion: str
    matched: Sequence[Sequence[str]]
    candidates: int


async def extractive_answer(
    passages: Sequence[str],
    query_vector: Sequence[float],
    embedder: Embedder,
    **choice: Unpack[SentenceChoice],
) -> str | None:
    """The rendered answer (see `choose_sentences`); None when the passages hold no sentence."""
    picked = await choose_sentences(passages, query_vector, embedder, **choice)
    return render_extractive(picked) if picked else None
