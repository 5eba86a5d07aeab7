"""`warden ask ["QUESTION"] [--user ID] [--name NAME] [--json]`: one message, or JSON lines
from stdin, through ChatService exactly as the API runs it."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from service.answer import answer_dict
from service.auth.tokens import Principal
from service.chat import ChatService
from service.errors import ServiceError


async def _answer(chat: ChatService, question: str, user: str, name: str) -> dict[str, Any]:
    try:
        outcome = await chat.answer(Principal(user, name, ""), question)
    except ServiceError as exc:
        return {"error": exc.code, "detail": exc.detail}
    return answer_dict(outcome)


def _human(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"error: {result['detail']}"
    lines = [result["response"], ""]
    mode = f", mode {result['mode']}" if result.get("mode") else ""
    lines.append(f"route {result['route']}{mode}, confidence {result['confidence']:.0f}")
    for source in result.get("sources", []):
        page = f" p.{source['page']}" if source.get("page") else ""
        lines.append(f"  - {source['source']}{page} (score {source['score']:.2f})")
    return "\n".join(lines)


def _parse_line(line: str, user: str, name: str) -> tuple[str, str, str] | dict[str, str]:
    try:
        item = json.loads(line)
    except ValueError:
        return {"error": "malformed_json", "detail": "The line is not valid JSON."}
    if not isinstance(item, dict) or not isinstance(item.get("question"), str):
        return {"error": "invalid_request", "detail": 'Each line needs {"question": "..."}.'}
    return item["question"], str(item.get("user") or user), str(item.get("name") or name)


async def ask(
    chat: ChatService,
    question: str | None,
    user: str,
    name: str,
    as_json: bool,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """One question, or JSON lines from stdin (one JSON line out per line in)."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    if question is not None:
        result = await _answer(chat, question, user, name)
        print(json.dumps(result) if as_json else _human(result), file=out)
        return 1 if "error" in result else 0
    failed = False
    for line in stdin:
        if not line.strip():
            continue
        parsed = _parse_line(line, user, name)
        result = parsed if isinstance(parsed, dict) else await _answer(chat, *parsed)
        failed = failed or "error" in result
        print(json.dumps(result), file=out, flush=True)
    return 1 if failed else 0
