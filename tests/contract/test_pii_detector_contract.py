"""The PiiDetector contract on the basics both implementations cover: email, phone, card."""

from __future__ import annotations

import pytest

from pipelines.ports import PiiDetector, PiiSpan
from service.adapters.pii.presidio_detector import PresidioPiiDetector
from tests.fakes.detector import FakePiiDetector


@pytest.fixture(scope="module", params=["fake", "presidio"])
def detector(request: pytest.FixtureRequest) -> PiiDetector:
    if request.param == "fake":
        return FakePiiDetector()
    real = PresidioPiiDetector()
    real.warm()
    return real


def found(text: str, spans: list[PiiSpan]) -> set[tuple[str, str]]:
    return {(text[s.start : s.end], s.entity_type) for s in spans}


CASES = [
    ("Write to asha.rao@example.com today", "asha.rao@example.com", "EMAIL_ADDRESS"),
    ("Call me on +91 98765 43210 please", "+91 98765 43210", "PHONE_NUMBER"),
    ("My London number is +44 20 7946 0958.", "+44 20 7946 0958", "PHONE_NUMBER"),
    ("The office is (212) 555-0199 in New York", "(212) 555-0199", "PHONE_NUMBER"),
    ("My card 4111 1111 1111 1111 was stolen", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("Charge 5555555555554444 for me", "5555555555554444", "CREDIT_CARD"),
]


def test_implements_the_port(detector: PiiDetector) -> None:
    assert isinstance(detector, PiiDetector)


@pytest.mark.parametrize(("text", "value", "entity"), CASES)
async def test_finds_the_value_with_presidio_type_name(
    detector: PiiDetector, text: str, value: str, entity: str
) -> None:
    assert (value, entity) in found(text, await detector.detect(text))


async def test_number_failing_luhn_without_a_card_cue_is_not_a_card(detector: PiiDetector) -> None:
    # Right after "card" the Presidio detector masks a number failing Luhn on purpose (a
    # mistyped card number is still the user's; tests/integration/test_presidio_detector.py).
    text = "Reference 4111 1111 1111 1112 was quoted"
    assert all(s.entity_type != "CREDIT_CARD" for s in await detector.detect(text))


@pytest.mark.parametrize("text", ["How do I file an FIR?", "", "What is section 154 of the CrPC?"])
async def test_plain_text_has_no_spans(detector: PiiDetector, text: str) -> None:
    assert await detector.detect(text) == []


async def test_spans_are_ordered_disjoint_and_in_bounds(detector: PiiDetector) -> None:
    text = "Mail asha@example.com or call +91 98765 43210, card 4111 1111 1111 1111."
    spans = await detector.detect(text)
    assert [s.entity_type for s in spans] == ["EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD"]
    for left, right in zip(spans, spans[1:], strict=False):
        assert left.end <= right.start
    assert all(0 <= s.start < s.end <= len(text) and 0 < s.score <= 1 for s in spans)
