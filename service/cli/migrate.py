"""`warden migrate --to-qdrant URL --to-mongodb URI`: progress on stderr, the counts on
stdout (`--json`: one object). Exit 0 when every count matches, 1 when one does not."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import TextIO

from service.cli.streams import streams
from service.migration.copier import MigrationReport, Progress, migrate
from service.migration.ports import Plan


def _progress(err: TextIO) -> Progress:
    def show(name: str, done: int, total: int) -> None:
        print(f"[{name}] {done}/{total}", file=err, flush=True)

    return show


def _summary(report: MigrationReport) -> list[str]:
    lines = []
    for count in report.counts:
        mark = "ok" if count.matches else "MISMATCH"
        lines.append(f"{count.name}: source {count.source}, target {count.target} ({mark})")
    verdict = "verified" if report.verified else "NOT verified: run it again"
    lines.append(f"migration {verdict}" + (" (resumed)" if report.resumed else ""))
    return lines


async def run_migrate(
    plan: Plan,
    *,
    now: datetime,
    batch_size: int,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> int:
    out, err = streams(out, err)
    report = await migrate(
        plan, now=now, batch_size=batch_size, progress=progress or _progress(err)
    )
    for note in plan.notes:
        print(f"warden: not migrated, by hand: {note}", file=err)
    if as_json:
        print(json.dumps(report.as_dict()), file=out)
    else:
        print("\n".join(_summary(report)), file=out)
    return 0 if report.verified else 1
