"""Re-embeds every indexed chunk with the configured embedding model (`warden reindex`), from
the texts the index stores: no source file is read. Core knowledge and users' uploads alike
keep their ids and payloads (owner, expiry); only the vectors are new."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ingestion.points import reembed_points
from pipelines.ports import Embedder, EmbeddingModel, IndexRebuild


@dataclass
class ReindexReport:
    previous: EmbeddingModel | None  # what the index had recorded (None: nothing)
    model: EmbeddingModel
    points: int = 0  # re-embedded and written
    core: int = 0
    uploads: int = 0
    dropped: int = 0  # stored without a text, so not re-embeddable
    skipped: bool = False  # already built with `model`: nothing done


async def reindex(
    rebuild: IndexRebuild,
    embedder: Embedder,
    model: EmbeddingModel,
    *,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ReindexReport:
    """Fills `rebuild` and commits it; with the model already recorded, does nothing (unless
    `force`). Closes `rebuild` either way."""
    report = ReindexReport(rebuild.stored_model, model)
    try:
        if rebuild.stored_model == model and not force:
            report.skipped = True
            return report
        async for chunks in rebuild.chunks():
            points, dropped = await reembed_points(chunks, embedder)
            await rebuild.add(points)
            report.points += len(points)
            report.dropped += dropped
            report.uploads += sum(1 for p in points if p.payload.get("is_temporary") is True)
            if progress is not None:
                progress(report.points)
        report.core = report.points - report.uploads
        await rebuild.commit()
        return report
    finally:
        await rebuild.close()
