"""A synthetic knowledge base for the size benches: text documents made by recombining the
sentences of sample_kb/'s text files (seeded, so a size always gives the same files).

    python bench/_scale_corpus.py OUT_DIR --documents 7700

Each document is a title, then 3-5 sections of a heading and 2-3 paragraphs of 3-6 sentences
(~4.4 KB, the size of a sample-KB text file: ~13 children each once chunked).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ROOT  # noqa: E402

_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")


def sentences() -> tuple[list[str], list[str]]:
    """The sentences (40-300 characters) and the short lines (headings) of sample_kb/."""
    found, headings = [], []
    for path in sorted((ROOT / "sample_kb").iterdir()):
        if path.suffix not in (".txt", ".md"):
            continue
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            block = " ".join(block.split()).lstrip("#- ").strip()
            if 3 <= len(block) < 60 and not block.endswith("."):
                headings.append(block)
                continue
            found += [s for s in _SENTENCE.split(block) if 40 <= len(s) <= 300]
    return sorted(set(found)), sorted(set(headings))


def document(number: int, found: list[str], headings: list[str]) -> str:
    rng = random.Random(number)
    parts = [f"{rng.choice(headings).upper()} (NOTE {number})"]
    for _ in range(rng.randint(3, 5)):
        parts.append(rng.choice(headings))
        for _ in range(rng.randint(2, 3)):
            parts.append(" ".join(rng.sample(found, rng.randint(3, 6))))
    return "\n\n".join(parts) + "\n"


def write_corpus(out: Path, documents: int, *, start: int = 0) -> list[Path]:
    """Writes documents `start`..`start + documents - 1` as OUT/NNNNNNN.txt (kept if present)."""
    found, headings = sentences()
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(start, start + documents):
        path = out / f"note-{number:07d}.txt"
        if not path.exists():
            path.write_text(document(number, found, headings), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    written = write_corpus(args.out, args.documents, start=args.start)
    size = sum(p.stat().st_size for p in written)
    print(f"{len(written)} documents, {size / len(written):,.0f} bytes each on average")
