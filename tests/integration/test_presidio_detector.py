"""The real Presidio detector, table-driven over every entity type it is configured for."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from service.adapters import presidio_detector
from service.adapters.presidio_detector import PresidioPiiDetector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    real = PresidioPiiDetector()
    real.warm()
    return real


DETECTED = [
    ("email", "Reach me at asha.rao@example.co.in", "asha.rao@example.co.in", "EMAIL_ADDRESS"),
    ("phone IN", "Call +91 98765 43210 tonight", "+91 98765 43210", "PHONE_NUMBER"),
    ("phone UK", "Ring +44 20 7946 0958 please", "+44 20 7946 0958", "PHONE_NUMBER"),
    ("phone US", "Dial +1 212-555-0199 now", "+1 212-555-0199", "PHONE_NUMBER"),
    ("phone DE", "Tel. +49 30 901820 bitte", "+49 30 901820", "PHONE_NUMBER"),
    ("phone FR", "Appelez +33 1 42 68 53 00 demain", "+33 1 42 68 53 00", "PHONE_NUMBER"),
    ("phone local", "my phone number is 9876543210", "9876543210", "PHONE_NUMBER"),
    ("visa", "Card 4111 1111 1111 1111 expires soon", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("mastercard", "Use 5555-5555-5555-4444 for it", "5555-5555-5555-4444", "CREDIT_CARD"),
    ("amex", "Amex 378282246310005 declined", "378282246310005", "CREDIT_CARD"),
    ("iban DE", "IBAN DE89 3704 0044 0532 0130 00 ok", "DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
    ("iban GB", "Pay to GB82WEST12345698765432 today", "GB82WEST12345698765432", "IBAN_CODE"),
    ("ipv4", "Logged in from 192.168.1.10 twice", "192.168.1.10", "IP_ADDRESS"),
    ("ipv6", "and from 2001:db8::1 once", "2001:db8::1", "IP_ADDRESS"),
    ("ssn", "My SSN is 536-22-8726", "536-22-8726", "US_SSN"),
    ("ssn plain", "Number 536-22-8726 on file", "536-22-8726", "US_SSN"),
    ("aadhaar", "Aadhaar 2345 6789 0124 linked", "2345 6789 0124", "IN_AADHAAR"),
    ("aadhaar bare", "Use 234567890124 here", "234567890124", "IN_AADHAAR"),
    ("pan", "My PAN is ABCPE1234F", "ABCPE1234F", "IN_PAN"),
    ("passport", "my passport number is A1234567", "A1234567", "IN_PASSPORT"),
]


@pytest.mark.parametrize(
    ("text", "value", "entity"), [c[1:] for c in DETECTED], ids=[c[0] for c in DETECTED]
)
async def test_entity_is_detected(
    detector: PresidioPiiDetector, text: str, value: str, entity: str
) -> None:
    spans = await detector.detect(text)
    assert [(text[s.start : s.end], s.entity_type) for s in spans] == [(value, entity)]


NOT_PII = [
    "How do I file an FIR?",
    "What does section 154 of the CrPC say about the officer in charge?",
    "Python 3.12.1 was released in 2024, see page 42-43.",
    "The meeting is on 2024-01-05 at 10:30.",
    "Call 100 or 112 in an emergency.",
    "My code abc1234def does not compile.",
    "Invalid card 4111 1111 1111 1112 here",
    "Reference A1234567 in the ledger",
]


@pytest.mark.parametrize("text", NOT_PII)
async def test_plain_text_has_no_spans(detector: PresidioPiiDetector, text: str) -> None:
    assert await detector.detect(text) == []


def test_configured_entity_types(detector: PresidioPiiDetector) -> None:
    assert set(detector.entity_types) == {e for *_, e in DETECTED}


async def test_detect_runs_off_the_event_loop_thread(
    detector: PresidioPiiDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real = detector.detect_sync

    def recording(text: str) -> list[Any]:
        seen.append(threading.get_ident())
        return real(text)

    monkeypatch.setattr(detector, "detect_sync", recording)
    await detector.detect("a@example.com")
    assert seen and seen[0] != threading.get_ident()


def test_email_check_uses_the_bundled_suffix_list_only() -> None:
    assert presidio_detector.OFFLINE_TLD_EXTRACT.suffix_list_urls == ()
    assert presidio_detector.OFFLINE_TLD_EXTRACT.fallback_to_snapshot is True


async def test_fresh_detector_attempts_no_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[Any] = []

    def recording_connect(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        raise OSError("recorded and refused")

    monkeypatch.setattr(socket.socket, "connect", recording_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", recording_connect)
    fresh = PresidioPiiDetector()
    spans = await fresh.detect("Write to someone@mail.example.org or bob@uni.ac.uk")
    assert [s.entity_type for s in spans] == ["EMAIL_ADDRESS", "EMAIL_ADDRESS"]
    assert attempts == []
