"""JsonLogTracer, CompositeTracer and the backstop mask: no I/O beyond logging."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from pipelines.ports import Tracer
from service.adapters.tracing.composite_tracer import CompositeTracer
from service.adapters.tracing.log_tracer import JsonLogTracer
from service.adapters.tracing.trace_mask import MASKED, keep_only_codes
from tests.fakes.tracer import RecordingTracer

EVENT = {"route": "question", "confidence": 55.0, "pii_entities": ["EMAIL_ADDRESS"], "sources": 2}


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("question", True),
        ("breaker_open", True),
        ("EMAIL_ADDRESS", True),
        ("0123456789abcdef0123456789abcdef", True),
        ("2026-05-01T10:00:00+00:00", True),
        ("asha.rao@example.com", False),
        ("Asha Rao", False),
        ("Asha", False),
        ("call me on +91 98765 43210", False),
        ("", False),
    ],
)
def test_mask_keeps_codes_and_replaces_free_text(value: str, kept: bool) -> None:
    assert keep_only_codes(data=value) == (value if kept else MASKED)


def test_mask_walks_containers_and_keeps_numbers() -> None:
    data = {
        "n": 3,
        "ok": True,
        "none": None,
        "ratio": 0.5,
        "nested": {"who": "John Smith", "types": ["PERSON", "john@x.org"]},
        "Free text key": 1,
        "at": datetime(2026, 5, 1, tzinfo=UTC),
    }
    assert keep_only_codes(data=data) == {
        "n": 3,
        "ok": True,
        "none": None,
        "ratio": 0.5,
        "nested": {"who": MASKED, "types": ["PERSON", MASKED]},
        "at": "2026-05-01T00:00:00+00:00",
    }
    assert keep_only_codes(data=object()) == MASKED


async def test_log_tracer_writes_one_json_line_per_event(caplog: pytest.LogCaptureFixture) -> None:
    tracer = JsonLogTracer()
    assert isinstance(tracer, Tracer)
    with caplog.at_level(logging.INFO, logger="warden.events"):
        tracer.emit(EVENT)
        tracer.emit({"route": "reject", "at": datetime(2026, 5, 1, tzinfo=UTC)})
        await tracer.flush(1.0)
    records = [r for r in caplog.records if r.name == "warden.events"]
    assert [json.loads(r.getMessage()) for r in records] == [
        EVENT,
        {"route": "reject", "at": "2026-05-01 00:00:00+00:00"},
    ]
    assert all("\n" not in r.getMessage() for r in records)


class Broken:
    def emit(self, event: Mapping[str, Any]) -> None:
        raise RuntimeError("down")

    async def flush(self, timeout_s: float) -> None:
        raise RuntimeError("down")


class Hangs(RecordingTracer):
    async def flush(self, timeout_s: float) -> None:
        await asyncio.Event().wait()


async def test_composite_reaches_every_tracer_even_when_one_raises() -> None:
    before, after = RecordingTracer(), RecordingTracer()
    composite = CompositeTracer(before, Broken(), after)
    assert isinstance(composite, Tracer)
    composite.emit(EVENT)
    await composite.flush(1.0)
    assert before.events == after.events == [EVENT]
    assert before.flushes == after.flushes == 1


async def test_composite_flush_returns_when_a_tracer_hangs() -> None:
    fine = RecordingTracer()
    composite = CompositeTracer(Hangs(), fine)
    await asyncio.wait_for(composite.flush(0.05), timeout=5)  # returns, does not raise
    assert fine.flushes == 1


async def test_composite_of_nothing_is_a_no_op() -> None:
    composite = CompositeTracer()
    composite.emit(EVENT)
    await composite.flush(0.1)
