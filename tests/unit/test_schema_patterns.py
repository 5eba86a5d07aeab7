"""The OpenAPI patterns agree with the checks they describe, for every white-space character
Python or pydantic knows and a few neither does (U+FEFF, U+200B)."""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime

import pytest
from pydantic import BaseModel, ConfigDict

from pipelines.ports import HistoryCursor
from service.errors import ServiceError
from service.http import patterns
from service.http.auth import EMAIL_FORM
from service.http.chat import CURSOR_PATTERN, decode_cursor, encode_cursor

SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
OTHERS = ["a", "\ufeff", "\u200b", "\x00", "\x1b", "é"]


class Stripped(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)
    text: str


def pydantic_strip(text: str) -> str:
    return Stripped(text=text).text


@pytest.mark.parametrize("char", SPACES + OTHERS)
def test_not_blank_means_what_python_and_pydantic_strip_leave(char: str) -> None:
    for text in (char, char * 3, f" {char}\t"):
        assert bool(re.search(patterns.NOT_BLANK, text)) == bool(text.strip())
        assert bool(re.search(patterns.NOT_STRIPPED, text)) == bool(pydantic_strip(text))


@pytest.mark.parametrize(
    "email",
    ["a@b.co", " a@b.co\t", "\x1ca@b.co", "a@b.co\x1d", "\x85a@b.co\u3000", "a b@c.de", "a@b",
     "@b.co", "a@@b.co", "a@b..co", "x" * 64 + "@b.co", "x" * 65 + "@b.co", "a@b.c\x1fo",
     "\ufeffa@b.co", "\u2029a@b.c\u2006"],
)  # fmt: skip
def test_the_email_pattern_is_the_check_after_stripping(email: str) -> None:
    expected = bool(EMAIL_FORM.fullmatch(pydantic_strip(email)))
    assert bool(re.search(patterns.EMAIL, email)) == expected


@pytest.mark.parametrize(
    "text",
    ["12345678", " 1234567 ", "1      8", "\u3000" * 9, "a\x1c\x1c\x1c\x1c\x1c\x1cb", "abcdefg",
     "\x1c123456\x1c", "\x1c1234567"],
)  # fmt: skip
def test_at_least_stripped(text: str) -> None:
    expected = len(pydantic_strip(text)) >= 8
    assert bool(re.search(patterns.at_least_stripped(8), text)) == expected


@pytest.mark.parametrize(
    "cursor", ["000000000000000", "000000000000001", "fffffffffffff1", "fffffffffffffff"]
)  # fmt: skip
def test_every_cursor_of_the_documented_shape_is_valid(cursor: str) -> None:
    shaped = re.fullmatch(CURSOR_PATTERN, cursor) is not None
    if shaped:
        assert encode_cursor(decode_cursor(cursor)) == cursor
    else:
        with pytest.raises(ServiceError):
            decode_cursor(cursor)


def test_a_cursor_keeps_its_position() -> None:
    at = datetime(2026, 12, 2, 9, 45, 1, 123000, tzinfo=UTC)
    for role in ("user", "assistant"):
        cursor = HistoryCursor(at, role)  # type: ignore[arg-type]
        assert decode_cursor(encode_cursor(cursor)) == cursor
