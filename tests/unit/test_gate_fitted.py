"""A gate fitted on the `retrieve` node's own signals round-trips through calibration.json and
is the gate `generate` applies: the node, the fit and the file share one set of signal names."""

from __future__ import annotations

import json
from pathlib import Path

from pipelines.nodes.generate import generate
from service.evaluation.calibration import Example, fit_gate
from service.pipeline_config import calibration_path, load_pipeline_config
from service.settings import Settings
from tests.unit._pipeline_kit import Kit, retrieved_state, runtime, seeded_kit

IN_SCOPE = [
    "When must a landlord return the security deposit?",
    "Where can I file a First Information Report?",
    "When must the police grant bail for a bailable offence?",
    "Can a consumer claim a refund for defective goods?",
]
OUT_OF_SCOPE = [
    "what is the airspeed of a swallow",
    "Who won the Cricket World Cup in 2011?",
    "How do I bake sourdough bread at home?",
]


async def _answer_mode(kit: Kit, question: str) -> str:
    state = await retrieved_state(kit, question)
    return (await generate(state, runtime(kit.deps())))["answer"].mode


async def test_a_fitted_calibration_round_trips_and_decides_in_the_node(tmp_path: Path) -> None:
    kit = await seeded_kit()
    found = {q: (await retrieved_state(kit, q))["retrieval"] for q in IN_SCOPE + OUT_OF_SCOPE}
    for retrieval in found.values():
        assert {"coverage", "named_coverage", "dense_top"} <= set(retrieval.signals)
    examples = [
        Example(r.signals, q in IN_SCOPE, q in IN_SCOPE, r.confidence) for q, r in found.items()
    ]
    fitted = fit_gate(examples, target=0.0)  # every in-scope question must pass

    data = tmp_path / "data"
    data.mkdir()
    settings = Settings(_env_file=None, data_dir=data, toxicity_classifier=False)  # type: ignore[call-arg]
    calibration_path(settings).write_text(json.dumps(fitted.as_dict()), encoding="utf-8")
    loaded = load_pipeline_config(settings).calibration
    assert loaded == fitted
    assert loaded is not None and {"coverage", "named_coverage"} <= set(loaded.weights)

    kit.with_config(calibration=loaded, confidence_threshold=100.0)  # 100 alone refuses all
    assert [await _answer_mode(kit, q) for q in IN_SCOPE] == ["generated"] * len(IN_SCOPE)
    kit.with_config(calibration=loaded, confidence_threshold=0.0)  # 0 alone answers all
    modes = [await _answer_mode(kit, q) for q in OUT_OF_SCOPE]
    assert modes == ["abstained"] * len(OUT_OF_SCOPE)
