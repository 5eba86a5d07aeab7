"""The answer without a chat model: the passages' sentences closest to the question, cited."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipelines.ports import Embedder

EXTRACTIVE_LABEL = "Extracted from the knowledge base (no language model was used):"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*•\d])")
_MIN_CHARS = 20
_MIN_WORDS = 5
_NOT_PROSE = re.compile(r"^\s*(#|>|\|)")  # headings, quoted notes, table rows
_MAX_CHARS = 400
_MAX_PER_PASSAGE = 30


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


async def extractive_answer(
    passages: Sequence[str], query_vector: Sequence[float], embedder: Embedder, *, count: int
) -> str | None:
    """One embed_documents call for all sentences; None when the passages hold no sentence."""
    sentences = split_sentences(passages)
    if not sentences or not query_vector:
        return None
    vectors = await embedder.embed_documents([s.text for s in sentences])
    return render_extractive(pick_sentences(sentences, vectors, query_vector, count=count))
