"""JsonLogTracer, CompositeTracer and the backstop mask: no I/O beyond logging."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
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
    assert all(r.levelno == logging.INFO for r in records)


async def test_log_tracer_drops_an_unwritable_event_with_a_warning_and_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tracer = JsonLogTracer()
    circular: dict[str, Any] = {"route": "question"}
    circular["self"] = circular  # json cannot write this
    with caplog.at_level(logging.INFO):
        tracer.emit(circular)  # must not raise into the request
        tracer.emit({1: "a", "b": 2})  # keys json cannot sort
        tracer.emit(EVENT)
    events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "warden.events"]
    assert events == [EVENT]  # nothing half-written for the bad ones; the next one goes out
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage() for r in warnings] == ["could not log an event"] * 2


class Broken:
    def emit(self, event: Mapping[str, Any]) -> None:
        raise RuntimeError("down: asha.rao@example.com")

    async def flush(self, timeout_s: float) -> None:
        raise RuntimeError("down: asha.rao@example.com")


class Hangs(RecordingTracer):
    def __init__(self) -> None:
        super().__init__()
        self.cancelled = asyncio.Event()

    async def flush(self, timeout_s: float) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise


def warnings_in(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_composite_reaches_every_tracer_even_when_one_raises(
    caplog: pytest.LogCaptureFixture,
) -> None:
    before, after = RecordingTracer(), RecordingTracer()
    composite = CompositeTracer(before, Broken(), after)
    assert isinstance(composite, Tracer)
    event = copy.deepcopy(EVENT)
    with caplog.at_level(logging.WARNING):
        composite.emit(event)
        await composite.flush(1.0)
    # the event went out whole to the tracers on both sides of the broken one, unchanged
    assert before.events == after.events == [EVENT]
    assert event == EVENT
    assert before.flushes == after.flushes == 1
    # the failure is swallowed but logged: which tracer, which error, never its message
    # (an exception text may carry what the event held)
    assert warnings_in(caplog) == [
        "tracer Broken failed to emit: RuntimeError",
        "tracer Broken failed to flush: RuntimeError",
    ]
    assert not any("asha" in r.getMessage() or r.exc_info for r in caplog.records)


async def test_composite_flush_returns_when_a_tracer_hangs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hangs, fine = Hangs(), RecordingTracer()
    composite = CompositeTracer(hangs, fine)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        await asyncio.wait_for(composite.flush(0.2), timeout=5)
    assert time.monotonic() - started < 2  # its own budget, not the 5 s safety net
    assert fine.flushes == 1
    # the hung flush is not left running behind the caller's back
    await asyncio.wait_for(hangs.cancelled.wait(), timeout=1)
    assert [m for m in warnings_in(caplog) if "did not flush" in m] == [
        "a tracer did not flush within 0.2 s"
    ]


async def test_composite_of_nothing_is_a_no_op(caplog: pytest.LogCaptureFixture) -> None:
    composite = CompositeTracer()
    assert isinstance(composite, Tracer)
    event = copy.deepcopy(EVENT)
    with caplog.at_level(logging.DEBUG):
        composite.emit(event)
        # returns at once, not after its 30 s budget (and asyncio.wait of nothing would raise)
        await asyncio.wait_for(composite.flush(30.0), timeout=2)
    assert event == EVENT
    assert [r for r in caplog.records if r.name != "asyncio"] == []
