"""`warden classify`: the route decision and its reasons, per message, for tuning and audits.

It runs the service's own classify step (safety.yaml and the toxicity scorer, loaded by the
same code as `warden serve`) and, with `--pii`, the retrieve step's masking (the detector and
the ingested allowlist). It opens no store and no embedder, so it takes no data-folder lock
and works while `warden serve` runs. The message text is printed only with `--echo`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from pipelines.deps import PipelineConfig
from pipelines.masking import mask_request
from pipelines.ports import PiiDetector
from pipelines.safety.classify import classify_message
from pipelines.state import ROUTE_OF
from service.chat import check_message
from service.errors import ServiceError
from service.settings import Settings

MESSAGE_KEYS = ("message", "question")
WARM_UP = "Hello, you idiot: mail a.b@example.org or call +44 20 7946 0958 about Jo Bloggs?"


@dataclass(frozen=True)
class ClassifyOptions:
    jsonl: bool = False  # JSON lines out (otherwise one short human line per message)
    text: bool = False  # stdin holds plain text, one message a line (otherwise JSON lines)
    pii: bool = False  # also report the entity types masking would replace
    echo: bool = False  # include the message text in the output


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


async def classify_one(
    message: str, config: PipelineConfig, detector: PiiDetector | None, max_chars: int
) -> dict[str, Any]:
    """One output record (never holding the message text), or an error record."""
    try:
        check_message(message, max_chars)  # the API's size and emptiness checks come first
    except ServiceError as exc:
        return {"error": exc.code, "detail": exc.detail}
    started = time.perf_counter()
    verdict = classify_message(message, config.safety)
    latency_ms = _ms(started)
    result: dict[str, Any] = {
        "route": ROUTE_OF[verdict.query_type],
        "query_type": verdict.query_type,
        "reasons": list(verdict.reasons),
    }
    if detector is not None:  # whatever the route: an audit wants to see the PII in a reject too
        started = time.perf_counter()
        masked = await mask_request(
            message, [], user_name="", detector=detector, allowlist=config.allowlist
        )
        result["pii_entities"] = masked.entity_types
        result["pii_latency_ms"] = _ms(started)
    result["latency_ms"] = latency_ms  # the classify step alone
    return result


async def _warm_up(config: PipelineConfig, detector: PiiDetector | None) -> None:
    """First calls fill caches (regexes, the suffix list): latency_ms should show steady cost."""
    await classify_one(WARM_UP, config, detector, len(WARM_UP))


def _messages(stdin: TextIO, as_text: bool) -> Iterator[str | dict[str, str]]:
    """Each non-blank input line as a message, or as an error record."""
    for line in stdin:
        if not line.strip():
            continue
        if as_text:
            yield line.rstrip("\r\n")
            continue
        try:
            item = json.loads(line)
        except ValueError:
            yield {"error": "malformed_json", "detail": "The line is not valid JSON."}
            continue
        found = [item.get(k) for k in MESSAGE_KEYS] if isinstance(item, dict) else []
        text = next((v for v in found if isinstance(v, str)), None)
        if text is None:
            detail = 'Each line needs {"message": "..."} or {"question": "..."}.'
            yield {"error": "invalid_request", "detail": detail}
        else:
            yield text


def _human(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"error {result['error']}: {result['detail']}"
    line = f"{result['route']:<8} {', '.join(result['reasons'])} ({result['latency_ms']:.2f} ms)"
    if "pii_entities" in result:
        line += f" pii: {', '.join(result['pii_entities']) or '-'}"
    return line + (f"\t{json.dumps(result['message'])}" if "message" in result else "")


async def classify(
    settings: Settings,
    message: str | None,
    options: ClassifyOptions,
    *,
    config: PipelineConfig,
    detector: PiiDetector | None = None,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """MESSAGE, or every line of stdin; exit 1 if any input was malformed or refused.
    `detector` is needed with `options.pii`."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    await _warm_up(config, detector if options.pii else None)
    inputs = [message] if message is not None else _messages(stdin, options.text)
    failed = False
    for item in inputs:
        if isinstance(item, dict):
            result: dict[str, Any] = dict(item)
        else:
            result = await classify_one(
                item, config, detector if options.pii else None, settings.max_message_chars
            )
            if options.echo:
                result["message"] = item
        failed = failed or "error" in result
        print(json.dumps(result) if options.jsonl else _human(result), file=out, flush=True)
    return 1 if failed else 0
