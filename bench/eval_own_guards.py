"""The abuse and greeting guards on the team's own hand-written legal-aid messages.

    PYTHONPATH=. python bench/eval_own_guards.py [--split dev|heldout|both] [--failures 20]
                                                 [--data path/to/file.jsonl]

Data: bench/datasets/own/guards_abuse_greeting.jsonl (round one, the default) and
guards_abuse_greeting_v2.jsonl (round two: more victims, small talk, obfuscated insults,
literal "dog"/"donkey"/"deaf" questions; written before any rule was run on it) and
guards_abuse_greeting_v4.jsonl and _v5.jsonl (written by someone who read none of the rules,
code or earlier data; v4 was measured once and then tuned on, v5 is held out), by hand for
the first deployment (Indian legal aid: English, Hinglish, Devanagari Hindi): insults aimed at
the reader, greetings and thanks, victims quoting the abuse they received, ordinary questions.
Each line has a fixed `split` (a hash of the text): tune on `dev` only; failures are printed
for `dev` only, never for `heldout`. Rules, models and toxicity scorer as the service loads them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipelines.safety.classify import classify_message  # noqa: E402
from service.bootstrap import toxicity_scorer  # noqa: E402
from service.pipeline_config import load_safety_rules  # noqa: E402

DATA = Path(__file__).resolve().parent / "datasets" / "own" / "guards_abuse_greeting.jsonl"
ROUTE = {"reject": "abusive", "greeting": "greeting", "question": "question"}


def load(path: Path = DATA) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout", "both"), default="both")
    parser.add_argument("--failures", type=int, default=0, help="dev failures shown")
    parser.add_argument("--data", type=Path, default=DATA, help="a JSONL file of the same fields")
    args = parser.parse_args()
    rules = load_safety_rules(models=True).with_toxicity_scorer(toxicity_scorer())
    rows = load(args.data)
    splits = ("dev", "heldout") if args.split == "both" else (args.split,)
    tally: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    failures: list[str] = []
    started = time.perf_counter()
    for row in rows:
        if row["split"] not in splits:
            continue
        decided = classify_message(row["text"], rules)
        good = decided.query_type == ROUTE[row["expect"]]
        split, family = row["split"], row["family"]
        for key in ((split, family, row["lang"]), (split, family, "all")):
            tally[key][0] += good
            tally[key][1] += 1
        if not good and row["split"] == "dev":
            failures.append(
                f"  [{row['family']}/{row['lang']}] {decided.query_type} "
                f"{','.join(decided.reasons)} | {row['text']}"
            )
    print(f"{args.data.name}: {len(rows)} texts, {time.perf_counter() - started:.1f} s")
    print(f"{'split':8} {'family':13} {'lang':9} {'right':>6}  {'n':>4}  share")
    for (where, kind, lang), (right, total) in sorted(tally.items()):
        print(f"{where:8} {kind:13} {lang:9} {right:6d}  {total:4d}  {100 * right / total:5.1f}%")
    for line in failures[: args.failures]:
        print(line)


if __name__ == "__main__":
    main()
