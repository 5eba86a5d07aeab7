"""The composition root caches embeddings inside the metering proxy: a cache hit is still a call."""

from __future__ import annotations

from pathlib import Path

from pipelines.metering import metering
from service.bootstrap import build_container
from tests.api.conftest import CHEAP_PASSWORDS, make_settings
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex


async def test_repeated_sentences_are_embedded_once_and_every_call_is_counted(
    tmp_path: Path,
) -> None:
    embedder = FakeEmbedder()
    container = await build_container(
        make_settings(tmp_path, toxicity_classifier=False),
        embedder=embedder,
        index=FakeVectorIndex(),
        detector=FakePiiDetector(),
        store=FakeStore(),
        tracer=RecordingTracer(),
        passwords=CHEAP_PASSWORDS,
    )
    try:
        sentences = ["Bail is the temporary release of an accused.", "Rent is due monthly."]
        port = container.deps.embedder
        with metering() as calls:
            first = await port.embed_documents(sentences)
            again = await port.embed_documents(list(reversed(sentences)))
        assert again == list(reversed(first))
        assert calls.embed == 2 and embedder.calls == 1
    finally:
        await container.close()
