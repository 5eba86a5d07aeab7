"""Regular expressions for the OpenAPI document that mean the same in Python and in ECMA-262
(JSON Schema's dialect): white space is spelled out, since the two dialects' `\\s` differ.

Two kinds of white space matter: what Python's `str.strip()` removes (`ChatService.accept`
judges a message blank with it) and what pydantic's `str_strip_whitespace` removes (Unicode's
White_Space: the same without U+001C-U+001F)."""

from __future__ import annotations

STRIPPED = r"\t-\r\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
PY_SPACE = STRIPPED + r"\x1c-\x1f"  # str.isspace()
NOT_BLANK = f"[^{PY_SPACE}]"  # found anywhere: `text.strip()` leaves something
NOT_STRIPPED = f"[^{STRIPPED}]"  # found anywhere: pydantic's stripping leaves something
_SPACES = f"[{STRIPPED}]*"
_WORD = f"[^@.{PY_SPACE}]+"
# service/http/auth.py's EMAIL_FORM, with the white space pydantic strips first
EMAIL = rf"^{_SPACES}[^@{PY_SPACE}]{{1,64}}@{_WORD}(\.{_WORD})+{_SPACES}$"


def at_least_stripped(n: int) -> str:
    """At least `n` (>= 2) characters once pydantic has stripped the text."""
    return f"{NOT_STRIPPED}[\\s\\S]{{{n - 2},}}{NOT_STRIPPED}"
