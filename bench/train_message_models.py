"""Trains the message models (pipelines/safety/message_models.py) on the team's hand-written
legal-aid messages, with third-party dev texts as extra negatives.

    PYTHONPATH=. python -m bench.datasets.sources        # once: pinned archives
    PYTHONPATH=. python bench/train_message_models.py [--write [--out DIR]] [--hold-out v9]
        [--head social]

Positives and negatives come from bench/datasets/own/guards_*.jsonl, every version except the
held-out ones (HELD_OUT, plus any `--hold-out`): insult = the abuse files' rejects, injection
= the injection files' rejects, social = every "greeting" row; each head's negatives are the
rows of the other routes. The third-party sets add their `dev` texts that are not abusive
(questions, Kaggle comments, documentation, look-alikes, benign instructions) as negatives
for every head, and the abusive dev texts the service misses as social negatives; a text the
service already rejects is left out. So are the look-alikes of the safety test tables
(bench/_hard_negatives.py) that the service routes as questions. Features: the normalised
clauses' words, word pairs and character 2-4 grams (pipelines/safety/linear.py), one hashing
for the three heads.
Logistic regression (scikit-learn, liblinear, C=10, class-balanced),
deterministic. With `--hold-out vN` it prints, per family and language, the routes on that
version before and after the models (the service's rules, models and toxicity scorer, then the
message models as classify asks them), the way the thresholds in safety.yaml were chosen.
`--head` refits only the named heads and keeps the shipped others (round 27 refit only the
small-talk head, with the review probes of rounds 25-27 as its negatives).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._hard_negatives import hard_negatives  # noqa: E402
from bench.datasets.registry import load_all  # noqa: E402
from bench.train_classifiers import BUCKETS, matrix  # noqa: E402
from pipelines.safety.classify import classify_message  # noqa: E402
from pipelines.safety.linear import LinearTextModel  # noqa: E402
from pipelines.safety.message_models import HEADS, MessageModels  # noqa: E402
from pipelines.safety.rules import SafetyRules  # noqa: E402
from service.bootstrap import toxicity_scorer  # noqa: E402
from service.pipeline_config import (  # noqa: E402
    DEFAULT_CONFIG_DIR,
    SAFETY_MODELS,
    load_safety_model,
    load_safety_rules,
)

OWN = Path(__file__).resolve().parent / "datasets" / "own"
MODELS = Path(__file__).resolve().parents[1] / "service" / "config" / "models"
HELD_OUT = ("v21", "v22h", "v24")  # never trained on: the README's held-out figures
# files split in halves by a hash of the text: their `dev` half is trained on, their `heldout`
# half never (the README's round-24 and round-25 figures)
HALVES_HELD_OUT = (
    "v26s",
    "v26t",
    "v29s",
    "v29t",
    "v31e",
    "v31i",
    "v32",
    "v32a",
    "v32e",
    "v33",
    "v35",
    "v36",
    "v41",
    "v42",
    "v43",
    "v45",
    "v46",
    "v47",
)
CHAR_NGRAMS = (2, 3, 4)
# for the small-talk head, grouped 4-fold cross-validation by writer's file (v20 held out) gave
# English greetings, thanks and small talk 81.2 / 83.9 / 85.9 / 87.2 / 88.1% for C = 1, 3, 10,
# 30, 100, with 0 / 1 / 4 / 5 / 6 of 7,233 other messages greeted; but a review's pleas ("can
# you save me?", "do you have lawyers in delhi?", "do you get tired? i am so tired of
# everything") were greeted by the C=30 head and not by the C=10 one: every head stays at 10
C = 10.0
MIN_WEIGHT = 0.02
HARD_WEIGHT = 3.0  # a test-table look-alike counts three times (no change on v9 held out)


@dataclass(frozen=True)
class Row:
    text: str
    kind: str  # "abuse" (abuse and greeting files), "injection" or "third-party"
    expect: str  # reject | greeting | question
    version: str
    family: str = ""
    lang: str = ""


def version_of(path: Path) -> str:
    tail = path.stem.rsplit("_", 1)[-1]
    return tail if tail.startswith("v") else "v1"


def own_rows() -> list[Row]:
    rows = []
    for path in sorted(OWN.glob("guards_*.jsonl")):
        kind = "injection" if "injection" in path.name else "abuse"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                if version_of(path) in HALVES_HELD_OUT and d["split"] == "heldout":
                    continue
                rows.append(Row(d["text"], kind, d["expect"], version_of(path), d["family"],
                                d["lang"]))  # fmt: skip
    return rows


def third_party_rows(rules: SafetyRules) -> list[Row]:
    datasets, missing = load_all()
    if missing:
        sys.exit("missing sources: " + "; ".join(missing))
    rows = []
    for d in datasets:
        expect = "reject" if d.expect == "abusive" else d.expect
        for s in d.samples:
            kept = s.split == "dev" and expect != "greeting"
            if kept and classify_message(s.text, rules).query_type != "abusive":
                rows.append(Row(s.text, "third-party", expect, "dev"))
    return rows


def hard_negative_rows(rules: SafetyRules) -> list[Row]:
    """The test tables' look-alikes that the service routes as questions."""
    return [
        Row(text, "hard-negative", "question", "tests")
        for text in hard_negatives()
        if classify_message(text, rules).query_type == "question"
    ]


def label(head: str, row: Row) -> bool | None:
    """True, False, or None (not used for this head)."""
    if head == "social":
        return row.expect == "greeting"
    if row.expect == "reject":  # another head's attack teaches this one nothing
        return True if row.kind == head.replace("insult", "abuse") else None
    return False


def train(rows: list[Row], rules: SafetyRules, refit: tuple[str, ...]) -> MessageModels:
    """The heads in `refit` fitted on `rows`; the others are the shipped ones."""
    shipped = rules.message_models
    clauses = {r.text: rules.compiled.prepare(r.text).clauses for r in rows}
    heads = {head: getattr(shipped, head) for head in HEADS if shipped and head not in refit}
    for head in refit:
        used = [(r, y) for r in rows if (y := label(head, r)) is not None]
        x = matrix([clauses[r.text] for r, _ in used], CHAR_NGRAMS)
        y = np.array([y for _, y in used], dtype=int)
        model = LogisticRegression(C=C, class_weight="balanced", max_iter=5000, solver="liblinear")
        weight = np.array([HARD_WEIGHT if r.kind == "hard-negative" else 1.0 for r, _ in used])
        model.fit(x, y, sample_weight=weight)
        weights = model.coef_[0]
        kept = np.flatnonzero(np.abs(weights) >= MIN_WEIGHT)
        print(f"{head}: {y.sum()} positives, {len(y) - y.sum()} negatives, {len(kept)} weights")
        about = {"trained_on": "bench/train_message_models.py", "c": C, "texts": len(used)}
        heads[head] = LinearTextModel(
            f"message_{head}", BUCKETS, round(float(model.intercept_[0]), 5),
            {int(s): round(float(weights[s]), 3) for s in kept}, CHAR_NGRAMS, about,
        )  # fmt: skip
    return MessageModels(**heads)


def report(rows: list[Row], service: SafetyRules, models: MessageModels) -> None:
    """Routes per family and language: the service without, then with, the message models."""
    with_models = service.plugged(message_models=models)
    right: Counter[tuple[str, str, str]] = Counter()
    route = {"reject": "abusive", "greeting": "greeting", "question": "question"}
    for r in rows:
        for name, rules in (("before", service), ("after", with_models)):
            right[(r.family, r.lang, name)] += (
                classify_message(r.text, rules).query_type == route[r.expect]
            )
        right[(r.family, r.lang, "n")] += 1
    print("family             lang       n   before   after")
    for family, lang in sorted({(r.family, r.lang) for r in rows}):
        n = right[(family, lang, "n")]
        before, after = (100 * right[(family, lang, k)] / n for k in ("before", "after"))
        print(f"{family:18} {lang:9} {n:4d}  {before:6.1f}%  {after:6.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the weights")
    parser.add_argument("--out", type=Path, default=MODELS, help="where --write stores them")
    parser.add_argument("--hold-out", action="append", default=[], help="also hold out vN")
    parser.add_argument(
        "--head", action="append", choices=HEADS, help="refit only this head (default: all)"
    )
    args = parser.parse_args()
    refit = tuple(args.head or HEADS)
    held = set(HELD_OUT) | set(args.hold_out)
    rules = load_safety_rules(models=False)  # the service without the message models
    shipped = (load_safety_model(DEFAULT_CONFIG_DIR, name) for name in SAFETY_MODELS)
    service = rules.with_models(*shipped).with_toxicity_scorer(toxicity_scorer())
    own = own_rows()
    kept = [r for r in own if r.version not in held]
    rows = kept + third_party_rows(service) + hard_negative_rows(service)
    models = train(rows, service.plugged(message_models=load_safety_rules().message_models), refit)
    for version in args.hold_out:
        print(f"\n## {version}, held out of this fit")
        report([r for r in own if r.version == version], service, models)
    if args.write:
        args.out.mkdir(parents=True, exist_ok=True)
        for head in refit:
            path = args.out / f"message_{head}.json"
            mapping = getattr(models, head).to_mapping()
            path.write_text(json.dumps(mapping, separators=(",", ":")) + "\n", encoding="utf-8")
            print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
