"""KnowledgeService: loads the core knowledge base (`warden ingest`), then rebuilds the
allowlist of terms that occur in it (they are not a user's personal data)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ingestion.indexer import IngestReport, ProgressEvent, sync_folder
from pipelines.ports import Embedder, IndexBuilder, PiiDetector, VectorIndex
from service.allowlist import rebuild_allowlist


class KnowledgeService:
    def __init__(
        self, embedder: Embedder, index: VectorIndex, detector: PiiDetector, data_dir: Path
    ) -> None:
        self._embedder = embedder
        self._index = index
        self._detector = detector
        self._data_dir = data_dir

    async def sync(
        self,
        paths: Sequence[Path],
        *,
        delete_missing: bool,
        progress: Callable[[ProgressEvent], None],
    ) -> tuple[IngestReport, int]:
        """Adds, replaces, skips or removes documents; returns the report and the allowlist
        size. Idempotent: the same files a second time add nothing. Then the index's search
        structure is built (Qdrant Edge: HNSW; nothing to do when it already is)."""
        report = await sync_folder(
            paths, self._embedder, self._index, delete_missing=delete_missing, progress=progress
        )
        if isinstance(self._index, IndexBuilder):  # also after a run that was killed before it
            await self._index.optimize()
        terms = await rebuild_allowlist(self._data_dir, paths, self._index, self._detector)
        return report, terms

    async def close(self) -> None:
        await self._index.close()
