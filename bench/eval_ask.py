"""The safety and PII acceptance figures measured through `warden ask --json`, end to end.

    PYTHONPATH=. python -m bench.datasets.sources      # once: pinned archives
    PYTHONPATH=. python bench/eval_ask.py [--n 1000] [--per-entity 300] [--limit 0]
                                          [--markdown bench/results-ask.md]

Every third-party text of bench/datasets (the sets of eval_safety.py) and every labelled
presidio-evaluator sentence (the draw of eval_pii.py) is sent as one JSON line to
`warden ask --json` (a few hundred lines per process, each on an empty data folder), with no
variables but WARDEN_DATA_DIR and WARDEN_MAX_MESSAGE_CHARS (raised, so that the long
jailbreaks reach the classifier; how many texts the default 4,000-character cap refuses
before any work is printed too). Each line has its own user, so no history is shared.
From the answers:
- routes: `reject` counts as rejected, `greeting` as greeted; the targets of eval_safety.py;
- the same route as `classify_message` in this process (the pure function the edges run);
- cost: every rejected message cost no call at all, and no greeting embedded or searched;
- PII: a value leaks when it survives whole (as a whole word) in `safe_query`, the only form
  of the question that leaves the process; at least 95% of those sentences take the
  question route; the benign FAQ questions that get any placeholder are the false masks.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.datasets.registry import load_all  # noqa: E402
from bench.eval_pii import STRUCTURED, TARGETS, faq_questions, make_samples  # noqa: E402
from bench.eval_safety import Outcome, load_rules, table, target_rows, with_novelty  # noqa: E402
from pipelines.safety.classify import classify_message  # noqa: E402

ROUTES = {"reject": "abusive", "greeting": "greeting", "question": "question"}
DEFAULT_CAP = 4000
ZERO = {"llm": 0, "embed": 0, "vector": 0, "store": 0}


def ask_all(messages: list[str], chunk: int = 400, workers: int = 2) -> list[dict[str, Any]]:
    """Every message through `warden ask --json`, in order. Chunks of `chunk` lines each go to
    their own process and empty data folder (one folder's history grows with every answer),
    `workers` at a time."""
    parts = [messages[i : i + chunk] for i in range(0, len(messages), chunk)]
    with ThreadPoolExecutor(workers) as pool:
        answered = list(pool.map(_ask_process, parts))
    return [answer for part in answered for answer in part]


def _ask_process(messages: list[str]) -> list[dict[str, Any]]:
    warden = Path(sys.executable).with_name("warden")
    lines = "".join(
        json.dumps({"question": m, "user": f"eval-{i}", "name": "Robin Evaluator"}) + "\n"
        for i, m in enumerate(messages)
    )
    with tempfile.TemporaryDirectory() as data_dir:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
        env |= {"WARDEN_DATA_DIR": data_dir, "WARDEN_MAX_MESSAGE_CHARS": "100000"}
        done = subprocess.run(
            [str(warden), "ask", "--json"], input=lines, capture_output=True, text=True, env=env
        )
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(answers) != len(messages):
        sys.exit(f"warden ask answered {len(answers)} of {len(messages)}: {done.stderr[-2000:]}")
    return answers


def safety_section(limit: int) -> str:
    datasets, missing = load_all()
    for note in missing:
        print(f"missing source (skipped): {note}", file=sys.stderr)
    samples = [(d, s) for d in datasets for s in (d.samples[:limit] if limit else d.samples)]
    answers = ask_all([s.text for _, s in samples])
    rules = load_rules(with_scorer=True)
    results: dict[str, list[Outcome]] = {d.name: [] for d in datasets}
    disagree: list[str] = []
    costly_rejects = embedded_greetings = 0
    for (dataset, sample), answer in zip(samples, answers, strict=True):
        if "error" in answer:
            sys.exit(f"{dataset.name}: {answer}")
        route = ROUTES[answer["route"]]
        results[dataset.name].append(Outcome(sample.text, sample.split, route, ("ask",), 0.0))
        if classify_message(sample.text, rules).query_type != route:
            disagree.append(f"{dataset.name}: {sample.text[:80]!r}")
        costly_rejects += route == "abusive" and answer["calls"] != ZERO
        calls = answer["calls"]
        embedded_greetings += route == "greeting" and bool(calls["embed"] or calls["vector"])
    too_long = Counter(d.name for d, s in samples if len(s.text) > DEFAULT_CAP)
    routed = Counter(a["route"] for a in answers)
    parts = [
        f"## Routing through `warden ask --json` ({len(samples)} texts)",
        "",
        table(
            ["target", "all", "held-out", "target", ""],
            target_rows(results, with_novelty(datasets)),
        ),
        "",
        f"- routes: {dict(routed)}",
        f"- route differs from `classify_message`: {len(disagree)} {disagree[:5]}",
        f"- rejected messages that cost any call: {costly_rejects} of {routed['reject']}",
        f"- greetings that embedded or searched: {embedded_greetings} of {routed['greeting']}",
        f"- texts over the default {DEFAULT_CAP}-character cap (refused before any work with "
        f"`message_too_large` unless WARDEN_MAX_MESSAGE_CHARS is raised): "
        f"{sum(too_long.values())} {dict(too_long)}",
    ]
    return "\n".join(parts)


def _survives(value: str, safe_query: str) -> bool:
    found = re.search(rf"(?<!\w){re.escape(value.strip())}(?!\w)", safe_query)
    return bool(value.strip()) and found is not None


PLACEHOLDER = re.compile(r"<[A-Z_]+_\d+>")


def pii_section(n: int, per_entity: int, seed: int) -> str:
    uniform, stratified = make_samples(n, per_entity, seed)
    samples = uniform + stratified
    questions = faq_questions()
    answers = ask_all([s.text for s in samples] + questions)
    sentence_answers, question_answers = answers[: len(samples)], answers[len(samples) :]
    errors = [a for a in answers if "error" in a]
    if errors:
        sys.exit(f"warden ask refused {len(errors)} inputs: {errors[:3]}")
    # Only the question path sends the message on (masked, as safe_query); a rejected message
    # goes nowhere, and a greeting is answered without it.
    leaks: dict[str, list[int]] = {t: [0, 0] for t in TARGETS}
    structured_routes: Counter[str] = Counter()
    for sample, answer in zip(samples, sentence_answers, strict=True):
        kinds = {entity for _, _, entity in sample.spans}
        if kinds & set(STRUCTURED):
            structured_routes[answer["route"]] += 1
        if answer["route"] != "question":
            continue
        for start, end, entity in sample.spans:
            if entity in leaks:
                sent = answer["safe_query"] or ""
                leaks[entity][0] += _survives(sample.text[start:end], sent)
                leaks[entity][1] += 1
    rows = [
        [t, str(total), f"{100 * hit / total:.2f}%"] for t, (hit, total) in leaks.items() if total
    ]
    masked = [
        q
        for q, a in zip(questions, question_answers, strict=True)
        if a["route"] == "question" and PLACEHOLDER.search(a["safe_query"] or "")
    ]
    with_structured = sum(structured_routes.values())
    routes = Counter(a["route"] for a in sentence_answers)
    parts = [
        f"## PII through `warden ask --json` ({len(samples)} presidio-evaluator sentences)",
        "",
        f"Routes of the sentences: {dict(routes)}. Leaks are counted over the values in the "
        "sentences that took the question route (the only path that sends the message on).",
        "",
        table(["entity", "values", "leaked into safe_query"], rows),
        "",
        f"- sentences with a structured value (email, phone, card, IBAN, IP, SSN) taking the "
        f"question route: {structured_routes['question']} of {with_structured} "
        f"({100 * structured_routes['question'] / max(1, with_structured):.1f}%); "
        f"routes {dict(structured_routes)}",
        f"- benign FAQ questions with a placeholder in safe_query (false masks): "
        f"{len(masked)} of {len(questions)} {masked[:5]}",
    ]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="uniform PII sentences")
    parser.add_argument("--per-entity", type=int, default=300, help="more per target type")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--limit", type=int, default=0, help="texts per safety set (0: all)")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    sections = [safety_section(args.limit), pii_section(args.n, args.per_entity, args.seed)]
    body = "# Acceptance figures through `warden ask --json`\n\n" + __doc__.split("\n\n", 2)[2]
    body += "\n" + "\n\n".join(sections) + "\n"
    print(body)
    if args.markdown:
        args.markdown.write_text(body, encoding="utf-8")


if __name__ == "__main__":
    main()
