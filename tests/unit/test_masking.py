"""Request masking: one vault for the question, the history, the name and the context."""

from __future__ import annotations

import pytest

from pipelines.masking import mask_passages, mask_request, name_spans, placeholder_types
from pipelines.ports import Message, PiiSpan
from pipelines.safety.placeholders import PlaceholderVault
from tests.fakes.detector import FakePiiDetector


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("I am Meera Iyer.", "Meera Iyer", [(5, 15)]),
        ("meera   iyer and MEERA IYER", "Meera Iyer", [(0, 12), (17, 27)]),
        ("Meera alone, Iyer alone", "Meera Iyer", []),
        ("Meera Iyerson is someone else", "Meera Iyer", []),
        ("anything", "   ", []),
        ("May I appeal? I am May Chen", "May Chen", [(19, 27)]),
    ],
)
def test_name_spans(text: str, name: str, expected: list[tuple[int, int]]) -> None:
    spans = name_spans(text, name)
    assert [(s.start, s.end) for s in spans] == expected
    assert all(s.entity_type == "PERSON" for s in spans)


def test_placeholder_types_in_order_of_first_appearance() -> None:
    masked = "<EMAIL_ADDRESS_2> then <PERSON_1>, <EMAIL_ADDRESS_1> and a <tag> or <lower_1>"
    assert placeholder_types(masked) == ["EMAIL_ADDRESS", "PERSON"]


async def test_values_found_in_history_are_masked_in_the_question_too() -> None:
    class HistoryOnly(FakePiiDetector):
        async def detect(self, text: str) -> list[PiiSpan]:
            return [] if text.startswith("Q:") else self.detect_sync(text)

    masked = await mask_request(
        "Q: is jo@example.org right?",
        [Message("user", "use jo@example.org")],
        user_name="Asha Rao",
        detector=HistoryOnly(),
        allowlist=frozenset(),
    )
    assert masked.safe_query == "Q: is <EMAIL_ADDRESS_1> right?"
    assert masked.history == [Message("user", "use <EMAIL_ADDRESS_1>")]
    assert masked.name_placeholder == "<PERSON_1>"
    assert masked.entity_types == ["EMAIL_ADDRESS"]


async def test_a_nameless_user_is_the_user() -> None:
    masked = await mask_request(
        "hello", [], user_name="", detector=FakePiiDetector(), allowlist=frozenset()
    )
    assert masked.name_placeholder == "the user" and masked.entity_types == []


async def test_context_masking_scans_uploads_and_reuses_known_values() -> None:
    vault = PlaceholderVault()
    vault.mask("mail x@y.org", [PiiSpan(5, 12, "EMAIL_ADDRESS")])
    passages = [
        "Core text naming Asha Rao and x@y.org and a.b@c.org",
        "Upload: call +91 98765 43210 or a.b@c.org",
    ]
    masked = await mask_passages(
        passages,
        [False, True],
        vault,
        detector=FakePiiDetector(),
        user_name="Asha Rao",
        allowlist=frozenset(),
    )
    # core passages are not scanned: only the request's known values and the name are masked
    assert masked[0] == "Core text naming <PERSON_1> and <EMAIL_ADDRESS_1> and <EMAIL_ADDRESS_2>"
    assert masked[1] == "Upload: call <PHONE_NUMBER_1> or <EMAIL_ADDRESS_2>"
