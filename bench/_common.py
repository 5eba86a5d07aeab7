"""Shared bench helpers: the repo on sys.path, percentiles, timing samples, plain tables.

Import it first in a bench run as a script (`python bench/x.py`):

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench._common import ...
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of a non-empty sample."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: Sequence[float]) -> tuple[float, float]:
    """(median, p95) of a non-empty sample."""
    return statistics.median(values), percentile(values, 0.95)


class Samples:
    """Named timing samples in milliseconds, kept in insertion order of the names."""

    def __init__(self) -> None:
        self.by_name: dict[str, list[float]] = {}

    def add(self, name: str, ms: float) -> None:
        self.by_name.setdefault(name, []).append(ms)

    @contextmanager
    def time(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, (time.perf_counter() - started) * 1000)

    def rows(self, digits: int = 3) -> list[list[str]]:
        """[name, n, p50, p95, mean] per name, times in ms."""
        return [
            [name, str(len(v)), *(f"{x:.{digits}f}" for x in (*summary(v), statistics.fmean(v)))]
            for name, v in self.by_name.items()
        ]


def _is_number(cell: str) -> bool:
    try:
        float(cell.rstrip("x%"))
    except ValueError:
        return False
    return True


def print_table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], title: str | None = None
) -> None:
    """A plain-text table: numbers right-aligned, text left-aligned, one space-padded column
    per header."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    if title:
        print(f"\n== {title}")

    def line(row: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if _is_number(c) else c.ljust(w) for c, w in zip(row, widths, strict=True)
        ).rstrip()

    print(
        "  ".join(
            h.rjust(w) if i else h.ljust(w)
            for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        ).rstrip()
    )
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(line(row))
    sys.stdout.flush()
