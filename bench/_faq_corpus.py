"""The Python FAQ (Debian `python3.11-doc`, PSF-2.0) as question/answer pairs, and the probes
bench/eval_retrieval_masking.py asks with.

Pairs come from the reStructuredText sources under /usr/share/doc/python3.11/html/_sources/faq/:
every heading that asks something (holds "?" or opens with a question word) whose answer has
at least MIN_ANSWER_CHARS characters; a question asked twice is dropped (its answer would be
ambiguous). Light markup cleanup: roles, links, literals and directives become plain text.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipelines.ports import PiiDetector
from pipelines.safety.spans import drop_allowlisted

FAQ_DIR = Path("/usr/share/doc/python3.11/html/_sources/faq")
MIN_ANSWER_CHARS = 100
_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_QUESTION_WORDS = re.compile(r"^(how|what|why|when|where|which|who|is|are|can|do|does|should)\b")
_MARKUP = [
    (re.compile(r":[\w:]+:`[~!]?([^`<]+?)\s*(?:<[^>]*>)?`"), r"\1"),  # :role:`text <target>`
    (re.compile(r"`([^`<]+?)\s*<[^>]*>`_{1,2}"), r"\1"),  # `text <url>`_
    (re.compile(r"``([^`]+)``"), r"\1"),
    (re.compile(r"^\.\. .*$", re.MULTILINE), ""),  # directives, labels, comments
    (re.compile(r"::$", re.MULTILINE), ":"),
]
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


@dataclass(frozen=True)
class Pair:
    question: str
    answer: str
    doc_id: str  # the answer's file, relative to the knowledge-base folder


@dataclass(frozen=True)
class Probe:
    text: str  # what is asked
    doc_id: str  # the document that answers it


def _plain(rst: str) -> str:
    for pattern, replacement in _MARKUP:
        rst = pattern.sub(replacement, rst)
    return re.sub(r"\n{3,}", "\n\n", rst).strip()


def faq_pairs() -> list[Pair]:
    if not FAQ_DIR.is_dir():
        sys.exit(f"{FAQ_DIR} not found: apt-get install python3.11-doc")
    pairs: list[Pair] = []
    for page in sorted(FAQ_DIR.glob("*.rst.txt")):
        lines = page.read_text(encoding="utf-8").splitlines()
        heads = [
            i
            for i in range(len(lines) - 1)
            if lines[i].strip()
            and _UNDERLINE.match(lines[i + 1])
            and not _UNDERLINE.match(lines[i])
        ]
        for n, (start, end) in enumerate(zip(heads, [*heads[1:], len(lines)], strict=True)):
            title = " ".join(lines[start].split())
            if "?" not in title and not _QUESTION_WORDS.match(title.lower()):
                continue
            answer = _plain("\n".join(lines[start + 2 : end]))
            if len(answer) >= MIN_ANSWER_CHARS:
                pairs.append(Pair(title, answer, f"{page.name.split('.')[0]}/{n:03d}.txt"))
    asked = Counter(p.question.lower() for p in pairs)
    return [p for p in pairs if asked[p.question.lower()] == 1]


def sentences(text: str, *, min_chars: int = 40, max_chars: int = 300) -> list[str]:
    flat = " ".join(text.split())
    return [s for s in _SENTENCE_END.split(flat) if min_chars <= len(s) <= max_chars]


async def allowlist_sentences(
    pairs: list[Pair], detector: PiiDetector, allowlist: frozenset[str], per_doc: int = 2
) -> list[Probe]:
    """Answer sentences in which the detector flags a term the allowlist keeps (a person the
    FAQ names, a product): known-item queries on which the allowlist can make a difference."""
    probes: list[Probe] = []
    for pair in pairs:
        found = 0
        for sentence in sentences(pair.answer):
            spans = await detector.detect(sentence)
            if found < per_doc and len(drop_allowlisted(sentence, spans, allowlist)) < len(spans):
                probes.append(Probe(sentence, pair.doc_id))
                found += 1
    return probes
