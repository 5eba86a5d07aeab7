"""RecentDetections (service/adapters/pii/recent_detections.py): a text seen recently is not
examined again, the cache is bounded, and it holds no text."""

from __future__ import annotations

from service.adapters.pii.recent_detections import RecentDetections
from tests.fakes.detector import FakePiiDetector

TEXT = "write to asha@example.org"


async def test_a_recent_text_is_answered_from_the_cache() -> None:
    inner = FakePiiDetector()
    detector = RecentDetections(inner, entries=2)
    first = await detector.detect(TEXT)
    assert await detector.detect(TEXT) == first and inner.calls == 1
    assert first and first[0].entity_type == "EMAIL_ADDRESS"
    await detector.detect("one")
    await detector.detect("two")  # TEXT is now the least recently used: dropped
    await detector.detect(TEXT)
    assert inner.calls == 4
    assert all(TEXT not in repr(key) for key in detector._spans)  # noqa: SLF001
