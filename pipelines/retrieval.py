"""Pure retrieval helpers: merge both searches into the top parents, and cite them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pipelines.ports import SearchHit, Source
from pipelines.romanised import NO_WORDS, QueryWords
from pipelines.safety.keyword_fold import WORD

_MARKUP = re.compile(r"^[ \t]*(?:#{1,6}|>)[ \t]*", re.MULTILINE)
_WHITESPACE = re.compile(r"\s+")
_INDIC_LETTER = re.compile("[\u0900-\u0dff]")  # Devanagari to Sinhala


def embedding_text(search_text: str, expansion: str, words: QueryWords = NO_WORDS) -> str:
    """What the embedder reads of the expanded query (`search_text` + `expansion`): all of it,
    except that once the keyword map has added English, words in an Indic script are left out,
    and so are a romanised Hindi question's words that are no English (pipelines/romanised.py);
    a grammar word with an English gloss ("नहीं", "kahan") is replaced by it instead.

    MiniLM's vocabulary holds Devanagari as single letters, so a Hindi word reaches it as a run
    of letters that mean nothing to it, four or five tokens per word against one per English
    word: in "मकान मालिक सिक्योरिटी डिपॉजिट नहीं लौटा रहा (landlord tenant; security deposit)"
    they outweigh the expansion six to one and pull every Hindi question toward the same point.
    Without an expansion nothing changes (the words are then all there is to embed); the
    sparse search and the answer gate's coverage still see the whole question.
    """
    if not expansion.strip():
        return search_text + expansion
    kept = words.readable(search_text) if words.romanised(search_text) else search_text
    if _INDIC_LETTER.search(kept):
        kept = WORD.sub(
            lambda word: words.gloss(word[0]) if _INDIC_LETTER.search(word[0]) else word[0], kept
        )
    if kept == search_text:
        return search_text + expansion
    return _WHITESPACE.sub(" ", kept + expansion).strip()


def parent_key(hit: SearchHit) -> str:
    """The parent a child belongs to; a hit without one stands for itself."""
    return str(hit.payload.get("parent_id") or hit.id)


def merge_hits(
    core: Iterable[SearchHit], personal: Iterable[SearchHit], *, top_parents: int
) -> list[SearchHit]:
    """Both lists by score (highest first), the first hit of each parent, the top `top_parents`.

    Ties keep a stable, deterministic order: core before personal, then by point id.
    """
    if top_parents <= 0:
        return []
    tagged = [(hit, 0) for hit in core] + [(hit, 1) for hit in personal]
    tagged.sort(key=lambda pair: (-pair[0].score, pair[1], pair[0].id))
    best: list[SearchHit] = []
    seen: set[str] = set()
    for hit, _ in tagged:
        key = parent_key(hit)
        if key in seen:
            continue
        seen.add(key)
        best.append(hit)
        if len(best) >= top_parents:
            break
    return best


def single_line(text: str, limit: int) -> str:
    """Plain text on one line (Markdown heading/quote marks dropped), cut to `limit` characters."""
    flat = _WHITESPACE.sub(" ", _MARKUP.sub("", text)).strip()
    if len(flat) <= limit:
        return flat
    return flat[: max(limit - 1, 0)].rstrip() + "…"


def parent_text(hit: SearchHit) -> str:
    return str(hit.payload.get("parent_text") or hit.payload.get("text") or "")


def _page(value: object) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


def to_source(hit: SearchHit, *, preview_chars: int) -> Source:
    """A citation for one merged hit; the preview is the matching child's text, on one line."""
    payload = hit.payload
    preview_from = str(payload.get("text") or parent_text(hit))
    return Source(
        source=str(payload.get("source") or payload.get("doc_id") or "unknown"),
        page=_page(payload.get("page")),
        parent_id=parent_key(hit),
        preview=single_line(preview_from, preview_chars),
        score=float(hit.score),
        doc_id=str(payload.get("doc_id") or ""),
        extra={"is_temporary": payload.get("is_temporary") is True},
    )


def top_score(hits: Sequence[SearchHit]) -> float:
    return max((hit.score for hit in hits), default=0.0)
