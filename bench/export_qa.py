"""Writes one corpus of bench/_hybrid_sets.py as `warden eval retrieval` input: its documents
under DIR/kb/ and its questions (in scope and out of scope, both splits) as DIR/questions.jsonl.

    PYTHONPATH=. python bench/export_qa.py nyt /tmp/warden-nyt
    warden eval retrieval --qa /tmp/warden-nyt/questions.jsonl --corpus /tmp/warden-nyt/kb \
        --calibrate --out /tmp/warden-nyt/report

SQuAD v1.1 dev and new_wiki are never loaded (bench/_hybrid_sets.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._hybrid_sets import corpora  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", choices=["reddit", "faq", "debian", "nyt", "amazon"])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    corpus = next(c for c in corpora() if c.name == args.corpus)
    kb = args.dir / "kb"
    for doc_id, text in corpus.texts.items():
        (kb / doc_id).parent.mkdir(parents=True, exist_ok=True)
        (kb / doc_id).write_text(text + "\n", encoding="utf-8")
    lines = [
        {"question": q.text, "document": q.doc_id}
        if q.doc_id is not None
        else {"question": q.text, "expect": "out_of_scope"}
        for q in corpus.questions
    ]
    path = args.dir / "questions.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    inside = sum("document" in x for x in lines)
    print(f"{args.corpus}: {len(corpus.texts)} documents in {kb}, {inside} in-scope and "
          f"{len(lines) - inside} out-of-scope questions in {path}")  # fmt: skip


if __name__ == "__main__":
    main()
