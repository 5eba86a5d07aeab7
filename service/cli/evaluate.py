"""`warden eval retrieval|guards`: runs an evaluation file, writes report.json and the PNG
plots into --out, prints a summary (--json: the report without its per-message details, which
hold the question and message texts and stay in the local file)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from pipelines.deps import PipelineConfig, PipelineDeps
from service.cli.streams import streams
from service.evaluation.cases import GuardCase, RetrievalCase
from service.evaluation.guards import guards_report
from service.evaluation.plots import guards_plots, retrieval_plots
from service.evaluation.report import calibrate, retrieval_report
from service.evaluation.retrieval import run_questions

REPORT = "report.json"
CALIBRATION = "calibration.json"


@dataclass(frozen=True)
class EvalOptions:
    out: Path
    as_json: bool = False
    calibrate_to: Path | None = None  # --calibrate: where the fitted gate is installed


@contextmanager
def _progress(total: int, label: str, err: TextIO) -> Iterator[Callable[[], None]]:
    with tqdm(total=total, desc=label, file=err, unit="q", leave=False, delay=1.0) as bar:
        yield lambda: bar.update(1)


def _write(path: Path, content: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(content, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def _finish(report: dict[str, Any], options: EvalOptions, summary: str, out: TextIO) -> int:
    _write(options.out / REPORT, report)
    if options.as_json:
        public = {k: v for k, v in report.items() if k != "details"}
        print(json.dumps(public), file=out)
    else:
        print(summary, file=out)
        print(f"report: {options.out / REPORT}", file=out)
    return 0


def _retrieval_summary(report: dict[str, Any]) -> str:
    r, gate, best = report["retrieval"], report["gate"], report["best_threshold"]
    lines = [
        f"{report['in_scope']} in-scope, {report['out_of_scope']} out-of-scope questions",
        "recall@1 {:.3f}  recall@3 {:.3f}  recall@5 {:.3f}  MRR {:.3f}  nDCG@5 {:.3f}".format(
            r["recall@1"], r["recall@3"], r["recall@5"], r["mrr"], r["ndcg@5"]
        ),
        f"{gate['kind']} gate: in-scope abstention {gate['in_scope_abstention']:.3f}, "
        f"out-of-scope abstention {gate['out_of_scope_abstention']:.3f}",
        f"best separating threshold {best['threshold']:.1f} (Youden J {best['youden_j']:.3f})",
    ]
    if calibration := report["calibration"]:
        for part in ("fit", "holdout"):
            rates = calibration[part]
            lines.append(
                f"calibrated gate, {part} split: false abstain {rates['in_scope_abstention']:.3f}"
                f", false answer {rates['out_of_scope_answered']:.3f}"
            )
        lines.append(f"calibration written to {calibration['path']}")
    return "\n".join(lines)


def _streams(options: EvalOptions, out: TextIO | None, err: TextIO | None) -> tuple[TextIO, TextIO]:
    """stdout and stderr unless given (resolved per call, so redirection is honoured); makes
    the report folder."""
    options.out.mkdir(parents=True, exist_ok=True)
    return streams(out, err)


async def eval_retrieval(
    deps: PipelineDeps,
    cases: list[RetrievalCase],
    options: EvalOptions,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = _streams(options, out, err)
    with _progress(len(cases), "questions", err) as step:
        results = await run_questions(cases, deps, step)
    model, section = deps.config.calibration, None
    if options.calibrate_to is not None:
        try:
            model, section = calibrate(results)
        except ValueError as exc:
            print(f"warden: cannot calibrate: {exc}", file=err)
            return 1
        options.calibrate_to.parent.mkdir(parents=True, exist_ok=True)
        for path in (options.out / CALIBRATION, options.calibrate_to):
            _write(path, model.as_dict())
        section["path"] = str(options.calibrate_to)
    config = deps.config
    calibrated = config.calibration is not None
    report = retrieval_report(
        results, config.confidence_threshold, model, calibrated_gate=calibrated
    )
    report["calibration"] = section
    report["plots"] = retrieval_plots(report, options.out)
    return _finish(report, options, _retrieval_summary(report), out)


def eval_guards(
    config: PipelineConfig,
    cases: list[GuardCase],
    options: EvalOptions,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = _streams(options, out, err)
    with _progress(len(cases), "messages", err) as step:
        report = guards_report(cases, config, step)
    report["plots"] = guards_plots(report, options.out)
    routes = ", ".join(
        f"{name} P {v['precision']:.2f} R {v['recall']:.2f}" for name, v in report["routes"].items()
    )
    summary = f"{report['messages']} messages, accuracy {report['accuracy']:.3f}: {routes}"
    return _finish(report, options, f"{summary}\n{report['misses']} misses (in the report)", out)
