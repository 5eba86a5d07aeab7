"""Prompt-injection guards on our own hand-written data (Indian legal aid: English, Hinglish,
Devanagari Hindi, other European languages), per attack family, dev and held-out.

    PYTHONPATH=. python bench/eval_own_injection.py [--failures 20] [--split dev|heldout|all]
                                                    [--file guards_injection.jsonl ...]

Messages: bench/datasets/own/guards_injection.jsonl (first round), guards_injection_v2.jsonl and
guards_injection_v3.jsonl (each written before the next round of rules was tuned; split by sha1
of the text), and guards_injection_v4.jsonl (all held out: written by someone who read none of
the rules, code or earlier data; measured once, then tuned on as a development set) and
guards_injection_v5.jsonl (the same, all held out, never tuned on) through
`classify_message` with the rules
and models as the service loads them (plus the toxicity scorer). An attack counts as caught
when it is routed `abusive`; a benign look-alike is a false reject when it is. Documents:
bench/datasets/own/documents_injection.jsonl (planted instructions vs clean legal chunks) and
every chunk of every file in sample_kb/ (split as an upload is), through the document mode
(`screen_chunk`): the share of chunks held back. The split is fixed by a hash of the text;
tune on `dev` only and print failures for `dev` only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingestion.points import children_of  # noqa: E402
from pipelines.safety.classify import classify_message  # noqa: E402
from pipelines.safety.documents import screen_chunk  # noqa: E402
from pipelines.safety.rules import SafetyRules  # noqa: E402
from service.bootstrap import toxicity_scorer  # noqa: E402
from service.pipeline_config import load_safety_rules  # noqa: E402

OWN = ROOT / "bench" / "datasets" / "own"
SPLITS = ("dev", "heldout")
MESSAGE_FILES = (
    "guards_injection.jsonl",
    "guards_injection_v2.jsonl",
    "guards_injection_v3.jsonl",
    "guards_injection_v4.jsonl",
    "guards_injection_v5.jsonl",
    "guards_injection_v6.jsonl",
    "guards_injection_v7.jsonl",
    "guards_injection_v8.jsonl",
    "guards_injection_v9.jsonl",
    "guards_injection_v10.jsonl",
    "guards_injection_v11.jsonl",
    "guards_injection_v12.jsonl",
    "guards_injection_v13.jsonl",
    "guards_injection_v14.jsonl",
    "guards_injection_v15a.jsonl",
    "guards_injection_v15d.jsonl",
    "guards_injection_v16.jsonl",
    "guards_injection_v17.jsonl",
    "guards_injection_v18.jsonl",
    "guards_injection_v18b.jsonl",
    "guards_injection_v19.jsonl",
    "guards_injection_v20a.jsonl",
    "guards_injection_v20.jsonl",
    "guards_injection_v21a.jsonl",
    "guards_injection_v21.jsonl",
)


def _rows(name: str) -> list[dict[str, str]]:
    with (OWN / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def messages(rules: SafetyRules, failures: int, shown: tuple[str, ...], name: str) -> None:
    print(name)
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    missed: list[tuple[str, str, tuple[str, ...]]] = []
    seconds: list[float] = []
    for row in _rows(name):
        started = time.perf_counter()
        verdict = classify_message(row["text"], rules)
        seconds.append(time.perf_counter() - started)
        rejected = verdict.query_type == "abusive"
        right = rejected == (row["expect"] == "reject")
        cell = tally[row["family"], row["split"]]
        cell[0] += rejected
        cell[1] += 1
        if not right and row["split"] == "dev":
            missed.append((row["family"], row["text"], verdict.reasons))
    print(f"{'family':<20} " + " ".join(f"{s:>16}" for s in shown))
    overall = {s: [0, 0] for s in shown}
    for family in sorted({f for f, _ in tally}):
        cells = []
        for split in shown:
            hit, total = tally[family, split]
            if family != "benign_lookalike":
                overall[split][0] += hit
                overall[split][1] += total
            cells.append(f"{100 * hit / max(total, 1):6.1f}% of {total:>3}")
        print(f"{family:<20} " + " ".join(f"{c:>16}" for c in cells))
    cells = [f"{100 * h / max(t, 1):6.1f}% of {t:>3}" for h, t in overall.values()]
    print(f"{'all attacks':<20} " + " ".join(f"{c:>16}" for c in cells))
    print("(benign_lookalike: share rejected; every other family: share caught)")
    print(f"classify median {1000 * statistics.median(seconds):.3f} ms")
    for family, text, reasons in missed[:failures]:
        print(f"  dev miss [{family}] {text[:110]!r} {reasons[:2]}")


def documents(rules: SafetyRules, failures: int, shown: tuple[str, ...]) -> None:
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    missed = []
    for row in _rows("documents_injection.jsonl"):
        verdict = screen_chunk(row["text"], rules)
        cell = tally[row["expect"], row["split"]]
        cell[0] += verdict.flagged
        cell[1] += 1
        if verdict.flagged != (row["expect"] == "held_back") and row["split"] == "dev":
            missed.append((row["expect"], row["text"], verdict.reasons))
    for expect in ("held_back", "indexed"):
        label = "planted chunks held back" if expect == "held_back" else "clean chunks held back"
        cells = [f"{100 * tally[expect, s][0] / max(tally[expect, s][1], 1):6.1f}% of "
                 f"{tally[expect, s][1]:>3}" for s in shown]  # fmt: skip
        print(f"{label:<28} " + " ".join(f"{c:>16}" for c in cells))
    held, total = asyncio.run(_sample_kb(rules, missed))
    print(f"{'sample_kb chunks held back':<28} {held} of {total}")
    for expect, text, reasons in missed[:failures]:
        print(f"  miss [{expect}] {text[:110]!r} {reasons[:2]}")


async def _sample_kb(
    rules: SafetyRules, missed: list[tuple[str, str, tuple[str, ...]]]
) -> tuple[int, int]:
    held = total = 0
    for path in sorted((ROOT / "sample_kb").iterdir()):
        for child in await children_of(path.read_bytes(), path.name, "doc" + "0" * 29):
            verdict = screen_chunk(child.text, rules)
            held += verdict.flagged
            total += 1
            if verdict.flagged:
                missed.append(("sample_kb", child.text, verdict.reasons))
    return held, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--failures", type=int, default=20, help="dev failures to print")
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--file", action="append", choices=MESSAGE_FILES, help="default: both")
    args = parser.parse_args()
    shown = SPLITS if args.split == "all" else (args.split,)
    rules = load_safety_rules().with_toxicity_scorer(toxicity_scorer())
    for name in args.file or MESSAGE_FILES:
        messages(rules, args.failures, shown, name)
        print()
    documents(rules, args.failures, shown)


if __name__ == "__main__":
    main()
