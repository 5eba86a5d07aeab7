"""`warden reindex [--force] [--json]`: progress on stderr, the counts on stdout."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TextIO

from pipelines.ports import Embedder, IndexRebuild, embedding_model
from service.cli.streams import streams
from service.reindexing import reindex


async def run_reindex(
    rebuild: IndexRebuild,
    embedder: Embedder,
    *,
    force: bool,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = streams(out, err)
    model = embedding_model(embedder)
    before = rebuild.stored_model
    print(f"re-embedding the stored chunks with {model} (was {before or 'unrecorded'})", file=err)
    report = await reindex(
        rebuild,
        embedder,
        model,
        force=force,
        progress=lambda n: print(f"{n} chunks re-embedded", file=err),
    )
    if as_json:
        fields = asdict(report)
        fields["previous"] = before.name if before else None
        fields["model"] = model.name
        print(json.dumps(fields), file=out)
    elif report.skipped:
        print(
            f"the index is already built with {model}: nothing to do (--force redoes it)", file=out
        )
    else:
        print(
            f"re-embedded {report.points} chunks ({report.core} core, {report.uploads} uploads)"
            f" with {model}; {report.dropped} without a text left out",
            file=out,
        )
    return 0
