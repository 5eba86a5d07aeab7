"""texts_seen leaves random ids out, and nothing a user could write: the leak checks built on it
(SPEC guarantee 3) must still find a card, an Aadhaar or a phone number."""

from __future__ import annotations

import pytest

from tests.unit._pipeline_kit import RANDOM_ID

LEFT_OUT = [
    "decb441110a54c2e9f3b1c2d4e5f6a7b",
    "decb4411-10a5-4c2e-9f3b-1c2d4e5f6a7b",
]
KEPT = [
    "4111111111111111",  # a test card number
    "4111 1111 1111 1111",
    "2345 6789 0123",  # an Aadhaar number
    "9876543210",  # a phone number
    "asha@example.org",
    "ABCDE1234F",  # a PAN
]


@pytest.mark.parametrize("value", LEFT_OUT)
def test_a_random_id_is_left_out(value: str) -> None:
    assert RANDOM_ID.sub("<id>", f"request {value} done") == "request <id> done"


@pytest.mark.parametrize("value", KEPT)
def test_what_a_user_writes_is_kept(value: str) -> None:
    line = f"request decb441110a54c2e9f3b1c2d4e5f6a7b: {value}"
    assert value in RANDOM_ID.sub("<id>", line)
