"""keep_only_codes: a backstop mask for what a tracer sends out of the process.

Events are masked upstream; this only catches free text that slipped into one. It cannot
tell a lone lower-case word (a name typed in lower case) from a code, and lets it pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

MASKED = "[masked]"
_CODE = re.compile(
    r"[a-z0-9_.:/\-]{1,80}"  # route names, error codes, hex ids, prompt versions
    r"|[A-Z][A-Z0-9_]{0,63}"  # entity types: EMAIL_ADDRESS, PERSON
    r"|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?"  # ISO timestamps
)


def keep_only_codes(*, data: Any, **_: Any) -> Any:
    """Langfuse `mask`: numbers, booleans and code-like strings pass; other text does not."""
    if data is None or isinstance(data, bool | int | float):
        return data
    if isinstance(data, datetime):
        return data.isoformat()
    if isinstance(data, str):
        return data if _CODE.fullmatch(data) else MASKED
    if isinstance(data, Mapping):
        return {str(k): keep_only_codes(data=v) for k, v in data.items() if _CODE.fullmatch(str(k))}
    if isinstance(data, list | tuple | set | frozenset):
        return [keep_only_codes(data=item) for item in data]
    return MASKED


def code_or(value: Any, default: str) -> str:
    return value if isinstance(value, str) and _CODE.fullmatch(value) else default
