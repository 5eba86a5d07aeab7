"""The composition root: what build_container wires, and how Container.close() releases it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.metering import metering
from service.app import create_app
from service.bootstrap import build_container
from tests.api.conftest import CHEAP_PASSWORDS, Kit, make_settings
from tests.fakes.detector import FakePiiDetector
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.store import FakeStore
from tests.fakes.tracer import RecordingTracer
from tests.fakes.vector_index import FakeVectorIndex


async def test_config_files_settings_and_allowlist_reach_the_pipeline(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, confidence_threshold=55)
    settings.data_dir.mkdir(parents=True)
    (settings.data_dir / "allowlist.json").write_text(json.dumps({"terms": ["Gandhi"]}))
    store, index, tracer = FakeStore(), FakeVectorIndex(), RecordingTracer()
    container = await build_container(
        settings,
        embedder=FakeEmbedder(),
        index=index,
        detector=FakePiiDetector(),
        store=store,
        tracer=tracer,
        passwords=CHEAP_PASSWORDS,
    )
    config = container.config
    assert config.confidence_threshold == 55
    assert config.allowlist == frozenset({"Gandhi"})
    assert config.keyword_map["fir"] == "First Information Report"  # service/config/keywords.yaml
    assert config.safety.abuse  # service/config/safety.yaml
    scorer = config.safety.toxicity_scorer
    assert scorer is not None and scorer("you are a worthless idiot") > scorer("what is bail")
    assert container.deps.chat_model is None  # no WARDEN_LLM_BASE_URL: extractive answers

    with metering() as calls:  # every port the pipeline holds is metered
        await container.deps.embedder.embed_query("x")
        await container.deps.index.count()
        await container.store.user_by_email("a@example.org")
    assert calls.as_dict() == {"llm": 0, "embed": 1, "vector": 1, "store": 1}

    await container.close()
    assert store.closed and index.closed and tracer.flushes == 1


async def test_a_failed_build_closes_what_it_opened(tmp_path: Path) -> None:
    index = FakeVectorIndex()
    settings = make_settings(tmp_path, config_dir=tmp_path / "conf")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "safety.yaml").write_text("abuse: [not, a, mapping]\n")
    with pytest.raises(ValueError):
        await build_container(
            settings,
            embedder=FakeEmbedder(),
            index=index,
            detector=FakePiiDetector(),
            store=FakeStore(),
            tracer=RecordingTracer(),
            passwords=CHEAP_PASSWORDS,
        )
    assert index.closed


async def test_the_lifespan_leaves_a_given_container_open(kit: Kit) -> None:
    app = create_app(kit.container)
    async with app.router.lifespan_context(app):
        assert (await kit.client.get("/healthz")).status_code == 200
    assert not kit.container.closed
