"""`warden ingest` progress: one line per document with the chunks so far, the rate, and the
time left at the mean time per document not skipped."""

from __future__ import annotations

import io

from ingestion.report import ProgressEvent
from service.cli.ingest import progress_printer


def test_each_line_counts_chunks_rate_and_time_left() -> None:
    now = [100.0]
    err = io.StringIO()
    show = progress_printer(err, clock=lambda: now[0])
    now[0] = 102.0
    show(ProgressEvent("a.txt", "added", 1, 4, 10))
    now[0] = 104.0
    show(ProgressEvent("b.txt", "skipped", 2, 4, 0))
    first, second = err.getvalue().splitlines()
    assert first == "[1/4] added a.txt (10 chunks) | 10 chunks, 5.0/s, ~6 s left"
    assert second == "[2/4] skipped b.txt | 10 chunks, 2.5/s, ~8 s left"  # 4 s per worked one
