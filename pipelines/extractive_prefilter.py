"""Cheap pre-selection of the sentences worth embedding for an extractive answer.

Embedding every sentence of the top parents (~40-60, ~8 ms each on MiniLM) was most of the
question path. Lexical overlap with the (masked, expanded) query, scored BM25-style over the
candidate sentences themselves, plus a bonus for sentences inside the children the search
matched, keeps the few the embedding then ranks. Pure functions, no I/O.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORD_LIST = (
    "a about above after again against all am an and any are as at be because been before being"
    " below between both but by can could did do does doing done down during each few for from"
    " further had has have having he her here hers herself him himself his how i if in into is it"
    " its itself just me more most my myself no nor not now of off on once only or other our ours"
    " ourselves out over own same she should so some such than that the their theirs them"
    " themselves then there these they this those through to too under until up very was we were"
    " what when where which while who whom why will with would you your yours yourself"
    " yourselves get got may might must shall also one"
)
_STOPWORDS = frozenset(_STOPWORD_LIST.split())
_K1, _B = 1.2, 0.75  # BM25's usual constants
_EDGE_CHARS = 50  # a sentence cut by a child's edge still shares its start or its end with it


def stem(word: str) -> str:
    """A deliberately crude stemmer: plurals, -ing/-ed, a final e (file/filed/filing -> fil)."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def lexical_scores(
    query: str, sentences: Sequence[str], *, expansion: str = "", expansion_weight: float = 0.5
) -> list[float]:
    """BM25 of each sentence for the query's distinct terms, idf taken over `sentences`.

    Terms found only in `expansion` (the keyword map's additions) count `expansion_weight`.
    """
    weight = dict.fromkeys(terms(expansion), expansion_weight) | dict.fromkeys(terms(query), 1.0)
    bags = [Counter(terms(s)) for s in sentences]
    if not weight or not bags:
        return [0.0] * len(bags)
    count = len(bags)
    average = sum(sum(b.values()) for b in bags) / count or 1.0
    idf = {
        t: weight[t] * math.log(1 + (count - df + 0.5) / (df + 0.5))
        for t in weight
        if (df := sum(1 for b in bags if t in b))
    }
    scores = []
    for bag in bags:
        length = sum(bag.values())
        norm = _K1 * (1 - _B + _B * length / average)
        scores.append(sum(w * bag[t] * (_K1 + 1) / (bag[t] + norm) for t, w in idf.items()))
    return scores


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def inside(sentence: str, child: str) -> bool:
    """Whether the sentence (or the part of it a child's edge cut off) lies in the child."""
    flat = _flat(sentence)
    return flat[:_EDGE_CHARS] in child or flat[-_EDGE_CHARS:] in child


def child_bonus(sentence: str, matched: Sequence[str], *, best: float, other: float) -> float:
    """`best` inside the passage's best-scoring matched child, `other` inside another one."""
    for rank, child in enumerate(matched):
        if inside(sentence, child):
            return best if rank == 0 else other
    return 0.0


def preselect(
    sentences: Sequence[str],
    citations: Sequence[int],
    query: str,
    matched: Sequence[Sequence[str]],
    *,
    limit: int,
    expansion: str = "",
    best_child: float = 0.3,
    other_child: float = 0.15,
) -> list[int]:
    """Indices of the `limit` most promising sentences, in their original order.

    `citations[i]` is the 1-based passage of sentence i; `matched[p]` the texts of the children
    the search matched in passage p + 1, best first. The lexical score is scaled to [0, 1].
    """
    if limit <= 0:
        return []
    if len(sentences) <= limit:
        return list(range(len(sentences)))
    lexical = lexical_scores(query, sentences, expansion=expansion)
    top = max(lexical, default=0.0) or 1.0
    children = [[_flat(c) for c in group] for group in matched]
    scores = []
    for i, (text, citation) in enumerate(zip(sentences, citations, strict=True)):
        own = children[citation - 1] if 0 < citation <= len(children) else []
        bonus = child_bonus(text, own, best=best_child, other=other_child)
        scores.append((-(lexical[i] / top + bonus), i))
    return sorted(i for _, i in sorted(scores)[:limit])
