"""Indian identifiers in `safe_query`, on the team's own hand-written legal-aid messages.

    PYTHONPATH=. python bench/eval_own_pii.py [--split dev|heldout|both] [--show] [--data FILE]

Data: bench/datasets/own/pii_india.jsonl (round one) or pii_india_v2.jsonl (round two: cards
after a card cue whether or not they pass Luhn, PIN codes after a cue anywhere, names after
Indian cues, more look-alikes), one message a line:
    {"text": ..., "values": [{"type": ..., "value": ...}], "split": "dev" | "heldout"}
written by hand (English, Hinglish, Devanagari context words) before any tuning, and split
about 50/50 by a hash of the text. Tune on dev only; held-out is read once, at the end.
Messages with no values are look-alikes (sections, case numbers, amounts, "contractor").

Each message goes through the real PresidioPiiDetector and `pipelines.masking.mask_request`,
as the service masks a question (no user name, the allowlist given with --allowlist).
- leak: the value survives whole in the masked text (bench/eval_pii.py's definition);
- words left: some word of the value (3+ characters, found nowhere else in the message)
  survives, the stricter measure an address needs ("Mumbai 400069" left after the street);
- false masks: detected spans that overlap no labelled value, counted apart for the
  look-alike messages (every span there is false) and for the others;
- latency: mask_request per message, median and p95 (after a warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.masking import mask_request, spans_to_mask
from pipelines.ports import PiiDetector

DATA = Path(__file__).resolve().parent / "datasets" / "own" / "pii_india.jsonl"


@dataclass
class SplitReport:
    values: Counter[str] = field(default_factory=Counter)
    leaked: Counter[str] = field(default_factory=Counter)
    words_left: Counter[str] = field(default_factory=Counter)
    lookalike_messages: int = 0
    lookalike_masked: int = 0  # look-alike messages with any mask
    false_spans: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, type, text)
    leaks: list[tuple[str, str, str]] = field(default_factory=list)  # (type, value, safe_query)
    latencies_ms: list[float] = field(default_factory=list)


def load(path: Path = DATA) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _words_left(text: str, value: str, masked: str) -> bool:
    start = text.index(value)
    outside = text[:start] + " " + text[start + len(value) :]
    for word in re.findall(r"\w{3,}", value):
        pattern = rf"(?<!\w){re.escape(word)}(?!\w)"
        if re.search(pattern, masked) and not re.search(pattern, outside):
            return True
    return False


async def score(
    rows: Sequence[dict[str, object]], detector: PiiDetector, allowlist: frozenset[str]
) -> SplitReport:
    report = SplitReport()
    for row in rows:
        text = str(row["text"])
        values = [(str(v["type"]), str(v["value"])) for v in row["values"]]  # type: ignore[attr-defined]
        began = time.perf_counter()
        masked = await mask_request(
            text,
            [],
            user_name="",
            detector=detector,
            allowlist=allowlist,
        )
        report.latencies_ms.append((time.perf_counter() - began) * 1000)
        safe = masked.safe_query
        for kind, value in values:
            report.values[kind] += 1
            if value in safe:
                report.leaked[kind] += 1
                report.leaks.append((kind, value, safe))
            if value in safe or _words_left(text, value, safe):
                report.words_left[kind] += 1
        spans = await spans_to_mask(
            text,
            detector,
            user_name="",
            allowlist=allowlist,
        )
        labelled = [(text.index(v), text.index(v) + len(v)) for _, v in values]
        kind = "lookalike" if not values else "other"
        if not values:
            report.lookalike_messages += 1
            report.lookalike_masked += bool(spans)
        for span in spans:
            if not any(span.start < b and a < span.end for a, b in labelled):
                report.false_spans.append((kind, span.entity_type, text[span.start : span.end]))
    return report


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def table(reports: dict[str, SplitReport]) -> str:
    names = list(reports)
    kinds = sorted({k for r in reports.values() for k in r.values})
    lines = ["| type | " + " | ".join(f"{n}: n, leak, words left" for n in names) + " |"]
    lines.append("|---|" + "---|" * len(names))
    for kind in kinds:
        cells = [
            f"{r.values[kind]}, {_pct(r.leaked[kind], r.values[kind])}, "
            f"{_pct(r.words_left[kind], r.values[kind])}"
            for r in reports.values()
        ]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")

    def latency(r: SplitReport, q: float) -> float:
        ordered = sorted(r.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    rows = {
        "look-alike messages masked": lambda r: f"{r.lookalike_masked}/{r.lookalike_messages}",
        "false spans, look-alikes": lambda r: str(sum(k == "lookalike" for k, *_ in r.false_spans)),
        "false spans, other messages": lambda r: str(sum(k == "other" for k, *_ in r.false_spans)),
        "mask_request ms, median / p95": lambda r: (
            f"{latency(r, 0.5):.2f} / {latency(r, 0.95):.2f}"
        ),
    }
    for label, cell in rows.items():
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in reports.values()) + " |")
    return "\n".join(lines)


async def run(
    splits: Sequence[str], show: bool, allowlist: frozenset[str], data: Path = DATA
) -> None:
    from service.adapters.pii.presidio_detector import PresidioPiiDetector

    detector = PresidioPiiDetector()
    detector.warm()
    rows = load(data)
    by_split: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        by_split[str(row["split"])].append(row)
    reports = {s: await score(by_split[s], detector, allowlist) for s in splits}
    print(table(reports))
    for name, report in reports.items() if show else ():
        print(f"\n## {name}: leaks")
        for kind, value, safe in report.leaks:
            print(f"- {kind} {value!r}: {safe}")
        print(f"## {name}: false spans")
        for kind, entity, value in report.false_spans:
            print(f"- {kind} {entity} {value!r}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--split", choices=["dev", "heldout", "both"], default="dev")
    parser.add_argument("--show", action="store_true", help="print each leak and false span")
    parser.add_argument("--allowlist", type=Path, help="an allowlist.json written by ingestion")
    parser.add_argument("--data", type=Path, default=DATA, help="a .jsonl of labelled messages")
    args = parser.parse_args(argv)
    allowlist: frozenset[str] = frozenset()
    if args.allowlist:
        allowlist = frozenset(json.loads(args.allowlist.read_text(encoding="utf-8"))["terms"])
    splits = ["dev", "heldout"] if args.split == "both" else [args.split]
    asyncio.run(run(splits, args.show, allowlist, args.data))


if __name__ == "__main__":
    main()
