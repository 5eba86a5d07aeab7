"""The fixed answers: abstaining, and degrading to the sources when no model can answer."""

from __future__ import annotations

from collections.abc import Sequence

from pipelines.ports import Source

ABSTAIN = "I could not find this in the knowledge base."
SEARCH_UNAVAILABLE = (
    "The knowledge base cannot be searched right now, so I cannot answer this. "
    "Please try again in a moment."
)
MODEL_UNAVAILABLE = "The language model is unavailable right now, so here are the sources found:"


def cite(source: Source) -> str:
    page = f", page {source.page}" if source.page is not None else ""
    return f"{source.source}{page}"


def degraded_answer(sources: Sequence[Source]) -> str:
    """The sources found, each with its name, page and preview, under a plain notice."""
    lines = [MODEL_UNAVAILABLE]
    for number, source in enumerate(sources, start=1):
        lines.append(f"[{number}] {cite(source)}: {source.preview}")
    return "\n".join(lines)


def numbered_context(passages: Sequence[str]) -> str:
    return "\n\n".join(f"[{number}] {text}" for number, text in enumerate(passages, start=1))
