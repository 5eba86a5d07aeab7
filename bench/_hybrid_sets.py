"""The question sets of bench/eval_hybrid.py: corpora, in-scope questions with a dev/test split,
and out-of-scope questions (other sets' questions asked against a corpus that cannot answer).

- `reddit` (dev), `nyt`, `amazon` (test): SQuAD-shifts, as bench/eval_retrieval.py loads them.
- `faq`: the Python FAQ (bench/_faq_corpus.py), `debian`: the Debian FAQ (debian-faq package,
  /usr/share/doc/debian/FAQ/debian-faq.en.txt.gz; every numbered heading that asks something,
  its answer the text up to the next heading). Both split by question: sha256('<set>\\0<question>')
  first byte < 128 is dev, the rest test. The corpus holds every answer either way.
- `sample_kb`: sample_kb/ with eval/sample_kb_questions.jsonl (dev), its own out-of-scope lines.

Out of scope, per corpus and split: dev corpora get dev questions of other sets, test corpora
test questions, so no question is used on both sides. The Python and Debian FAQs are never
asked of each other (both answer "how do I install ..." questions).
SQuAD v1.1 dev and new_wiki are held out: never loaded.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from bench._faq_corpus import MIN_ANSWER_CHARS, faq_pairs
from bench.eval_retrieval import load_set

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_FAQ = Path("/usr/share/doc/debian/FAQ/debian-faq.en.txt.gz")
_SECTION = re.compile(r"^(\d+)\.(\d+)\.\s+(\S.*)$")
_CHAPTER = re.compile(r"^\d+\.\s+\S")
_QUESTION_WORDS = re.compile(r"^\(?(how|what|why|when|where|which|who|is|are|can|do|does)\b")


@dataclass(frozen=True)
class Question:
    text: str
    doc_id: str | None  # None: out of scope for this corpus
    split: str  # dev or test
    origin: str  # the set the question comes from


@dataclass(frozen=True)
class Corpus:
    name: str
    texts: dict[str, str]  # doc_id -> text (empty: `folder` is ingested as is)
    questions: list[Question]
    folder: Path | None = None


def half(name: str, question: str) -> str:
    return "dev" if hashlib.sha256(f"{name}\0{question}".encode()).digest()[0] < 128 else "test"


def debian_pairs() -> list[tuple[str, str, str]]:
    """(question, answer, doc_id) from the Debian FAQ's plain-text edition."""
    with gzip.open(DEBIAN_FAQ, "rt", encoding="utf-8") as faq:
        lines = faq.read().splitlines()
    pairs: list[tuple[str, str, str]] = []
    i = 0
    while i < len(lines):
        match = _SECTION.match(lines[i])
        if not match:
            i += 1
            continue
        title = [match.group(3)]
        i += 1
        while i < len(lines) and lines[i].strip():  # a heading wraps until the blank line
            title.append(lines[i].strip())
            i += 1
        body: list[str] = []
        while i < len(lines) and not _SECTION.match(lines[i]) and not _CHAPTER.match(lines[i]):
            body.append(lines[i])
            i += 1
        question = " ".join(" ".join(title).split())
        answer = "\n".join(body).strip()
        asks = "?" in question or _QUESTION_WORDS.match(question.lower())
        if asks and len(answer) >= MIN_ANSWER_CHARS:
            pairs.append((question, answer, f"debian/{match.group(1)}-{match.group(2)}.txt"))
    return pairs


def _squad(name: str, docs: int, questions: int, split: str) -> Corpus:
    texts, asked = load_set(name, docs, questions)
    return Corpus(name, texts, [Question(q, d, split, name) for q, d in asked])


def _faq(name: str, pairs: list[tuple[str, str, str]]) -> Corpus:
    texts = {doc: answer for _, answer, doc in pairs}
    return Corpus(name, texts, [Question(q, d, half(name, q), name) for q, _, d in pairs])


def _sample_kb() -> Corpus:
    rows = [json.loads(line) for line in (ROOT / "eval" / "sample_kb_questions.jsonl").open()]
    asked = [Question(r["question"], r.get("document"), "dev", "sample_kb") for r in rows if r]
    return Corpus("sample_kb", {}, asked, folder=ROOT / "sample_kb")


def _pick(questions: list[Question], split: str, count: int) -> list[Question]:
    chosen = [q for q in questions if q.split == split and q.doc_id is not None]
    step = max(len(chosen) / count, 1.0)
    return [chosen[int(i * step)] for i in range(min(count, len(chosen)))]


def corpora(squad_docs: int = 600, squad_questions: int = 400) -> list[Corpus]:
    """Every corpus with its in-scope and out-of-scope questions."""
    reddit = _squad("reddit", 300, 300, "dev")
    nyt = _squad("nyt", squad_docs, squad_questions, "test")
    amazon = _squad("amazon", squad_docs, squad_questions, "test")
    faq = _faq("faq", [(p.question, p.answer, p.doc_id) for p in faq_pairs()])
    debian = _faq("debian", debian_pairs())
    kb = _sample_kb()
    sq = {c.name: c.questions for c in (reddit, nyt, amazon, faq, debian)}
    outside = {  # corpus -> [(origin, split, count)]
        "reddit": [("faq", "dev", 60), ("debian", "dev", 60)],
        "faq": [("reddit", "dev", 120)],
        "debian": [("reddit", "dev", 120)],
        "sample_kb": [("reddit", "dev", 40), ("faq", "dev", 40), ("debian", "dev", 40)],
        "nyt": [("amazon", "test", 80), ("faq", "test", 40), ("debian", "test", 40)],
        "amazon": [("nyt", "test", 80), ("faq", "test", 40), ("debian", "test", 40)],
    }
    tests = {"faq": [("nyt", "test", 60), ("amazon", "test", 60)]}
    tests["debian"] = tests["faq"]
    result = []
    for corpus in (reddit, faq, debian, kb, nyt, amazon):
        extra = [
            Question(q.text, None, split, origin)
            for origin, split, count in outside[corpus.name]
            for q in _pick(sq[origin], split, count)
        ]
        extra += [
            Question(q.text, None, "test", origin)
            for origin, split, count in tests.get(corpus.name, [])
            for q in _pick(sq[origin], split, count)
        ]
        result.append(Corpus(corpus.name, corpus.texts, corpus.questions + extra, corpus.folder))
    return result
