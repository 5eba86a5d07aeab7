"""The evaluation files: JSON lines of questions (retrieval) or messages (guards)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

ROUTES = ("reject", "greeting", "question")


class CaseFileError(ValueError):
    """A line that is not a case; the message names the file and the line, never its text."""


@dataclass(frozen=True)
class RetrievalCase:
    question: str
    document: str | None  # the file name that answers it; None: out of scope
    passage: str | None = None  # optional text the right context should contain

    @property
    def in_scope(self) -> bool:
        return self.document is not None


@dataclass(frozen=True)
class GuardCase:
    message: str
    expect: str  # reject, greeting or question


def _objects(path: Path) -> list[tuple[int, dict[str, object]]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            raise CaseFileError(f"{path}:{number}: not valid JSON") from None
        if not isinstance(item, dict):
            raise CaseFileError(f"{path}:{number}: each line must be a JSON object")
        rows.append((number, item))
    if not rows:
        raise CaseFileError(f"{path}: no cases")
    return rows


def _text(item: dict[str, object], key: str) -> str | None:
    value = item.get(key)
    return value if isinstance(value, str) and value.strip() else None


def read_retrieval_cases(path: Path) -> list[RetrievalCase]:
    """{"question", "document"[, "passage" or "answer"]}, or
    {"question", "expect": "out_of_scope"}."""
    cases = []
    for number, item in _objects(path):
        question, document = _text(item, "question"), _text(item, "document")
        out_of_scope = item.get("expect") == "out_of_scope"
        if question is None or (document is None) != out_of_scope:
            raise CaseFileError(
                f'{path}:{number}: needs "question" and either "document" or '
                '"expect": "out_of_scope"'
            )
        passage = _text(item, "passage") or _text(item, "answer")
        cases.append(RetrievalCase(question, document, passage))
    return cases


def read_guard_cases(path: Path) -> list[GuardCase]:
    """{"message", "expect": "reject" | "greeting" | "question"}."""
    cases = []
    for number, item in _objects(path):
        message, expect = _text(item, "message"), item.get("expect")
        if message is None or expect not in ROUTES:
            raise CaseFileError(
                f'{path}:{number}: needs "message" and "expect" (one of {", ".join(ROUTES)})'
            )
        cases.append(GuardCase(message, str(expect)))
    return cases
