"""Where a command writes: the given streams, else stdout and stderr, looked up per call so
that a redirected sys.stdout (tests, embedding) is honoured."""

from __future__ import annotations

import sys
from typing import TextIO


def streams(out: TextIO | None, err: TextIO | None) -> tuple[TextIO, TextIO]:
    return (sys.stdout if out is None else out), (sys.stderr if err is None else err)
