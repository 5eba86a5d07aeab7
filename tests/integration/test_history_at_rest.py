"""Personal data at rest (issue 13, acceptance 3): after 20 chats carrying e-mails, phone
numbers, card numbers, Aadhaar, PAN and UPI ids, no file of the data folder (SQLite and its
WAL, Qdrant Edge, the key file, the outbox) holds a raw value, while the owner's history and
export show every value restored. Store files and folders are owner-only."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from service.adapters.pii.presidio_detector import PresidioPiiDetector
from tests.integration.privacy_kit import embedded_service, files_holding

pytestmark = pytest.mark.slow

CARDS = ["4111 1111 1111 1111", "5500 0000 0000 0004", "3400 0000 0000 009", "4012888888881881"]


def _messages() -> list[tuple[str, list[str]]]:
    """20 questions, each with its raw values."""
    out: list[tuple[str, list[str]]] = []
    for n in range(20):
        email = f"asha.rao{n}@example.org"
        phone = f"+91 98765 4{n:04d}"
        card = CARDS[n % len(CARDS)]
        pan = f"ABCPE{1200 + n}F"
        upi = f"asha.rao{n}@okaxis"
        text = (
            f"My landlord kept my deposit. Mail me at {email} or call {phone}. "
            f"I paid rent with card {card}, my Aadhaar is 2345 6789 0124, "
            f"my PAN is {pan} and my UPI id is {upi}. What can I do?"
        )
        out.append((text, [email, phone, card, "2345 6789 0124", pan, upi]))
    return out


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    real = PresidioPiiDetector()
    real.warm()
    return real


def _forms(value: str) -> list[str]:
    """The value as written, and its digits run together (how a number may be stored)."""
    compact = value.replace(" ", "").replace("-", "")
    return [value] if compact == value else [value, compact]


async def test_no_raw_value_at_rest_and_the_owner_sees_them(
    tmp_path: Path, detector: PresidioPiiDetector
) -> None:
    messages = _messages()
    raw = sorted({form for _, values in messages for v in values for form in _forms(v)})
    data_dir = tmp_path / "data"
    async with embedded_service(tmp_path, detector) as service:
        headers = await service.headers_for("owner@example.net")
        for text, _ in messages:
            response = await service.client.post(
                "/v1/chat", json={"message": text}, headers=headers
            )
            assert response.status_code == 200 and response.json()["route"] == "question"
        history = await service.client.get("/v1/chat/history?limit=100", headers=headers)
        exported = await service.client.get("/v1/me/export", headers=headers)
        # while the stores are open: the SQLite WAL and Qdrant's log are on disk too
        assert files_holding(data_dir, raw) == {}

    questions = [m["content"] for m in history.json()["messages"] if m["role"] == "user"]
    assert questions == [text for text, _ in messages]  # restored byte for byte
    assert [m["content"] for m in exported.json()["history"]] == [
        m["content"] for m in history.json()["messages"]
    ]
    assert files_holding(data_dir, raw) == {}
    stored = (data_dir / "mongoeco" / "warden.sqlite").read_bytes()
    assert b"<EMAIL_ADDRESS_1>" in stored and b"<IN_PAN_1>" in stored  # masked, not missing

    for path in [data_dir, *data_dir.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path.relative_to(tmp_path)} is mode {mode:o}"
