"""The real Presidio detector, table-driven over every entity type it is configured for."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from service.adapters.pii import presidio_detector
from service.adapters.pii.lexicon import config_words
from service.adapters.pii.nlp import SpacyModelMissing, SpacyModelNlpEngine
from service.adapters.pii.presidio_detector import PresidioPiiDetector


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
    ("upi", "My UPI id is asha.rao92@okaxis", "asha.rao92@okaxis", "UPI_ID"),
    ("vehicle", "A truck MH 12 AB 1234 hit me", "MH 12 AB 1234", "IN_VEHICLE_REGISTRATION"),
    ("bank account", "my a/c no. 32145678901 was frozen", "32145678901", "IN_BANK_ACCOUNT"),
    ("voter id", "My voter ID is ABC1234567", "ABC1234567", "IN_VOTER"),
    ("ifsc", "Branch IFSC SBIN0004567 only", "SBIN0004567", "IN_IFSC"),
    ("pin code", "my pincode is 751001 and the courier", "751001", "IN_PIN_CODE"),
    # A card number failing the Luhn check right after "card" is masked: a mistyped card
    # number is still the user's personal data, and masking it costs the answer nothing
    # (a deliberate product decision). Without a card cue the check still decides.
    (
        "card failing luhn",
        "Invalid card 4111 1111 1111 1112 here",
        "4111 1111 1111 1112",
        "CREDIT_CARD",
    ),
    # shapes Presidio's own recognizers miss
    ("phone grouped", "Call me on 9822 3749 tonight", "9822 3749", "PHONE_NUMBER"),
    ("phone plus", "Reach +41 36 507 52 91 mornings", "+41 36 507 52 91", "PHONE_NUMBER"),
    (
        "mastercard 2",
        "Card 2223 0031 2200 3222 charged twice",
        "2223 0031 2200 3222",
        "CREDIT_CARD",
    ),
    ("visa 19", "Visa 4000000000000000006 declined", "4000000000000000006", "CREDIT_CARD"),
    ("maestro", "Maestro 6759649826438453 works", "6759649826438453", "CREDIT_CARD"),
    ("dob numeric", "I was born on 12/03/1990 and need a copy", "12/03/1990", "DATE_OF_BIRTH"),
    ("dob words", "DOB: 3 March 1985", "3 March 1985", "DATE_OF_BIRTH"),
    # people, from name lists, cues and titles
    ("name cue", "My name is Priya Sharma and I need help", "Priya Sharma", "PERSON"),
    ("name title", "Mr. Kulkarni refuses to return my deposit", "Kulkarni", "PERSON"),
    ("name lower", "my landlord ramesh kept my deposit", "ramesh", "PERSON"),
    ("name in-law", "Can my brother-in-law Anil claim my flat?", "Anil", "PERSON"),
    ("name unlisted", "Teake Tuininga will be talking", "Teake Tuininga", "PERSON"),
    ("name initial", "Bulat A. Butusov called me twice", "Bulat A. Butusov", "PERSON"),
    # street addresses
    ("street type", "I live at 42 MG Road near the market", "42 MG Road", "STREET_ADDRESS"),
    ("street glued", "Send it to Heirstraat 134 please", "Heirstraat 134", "STREET_ADDRESS"),
    (
        "street prefix",
        "Ship to Via Goffredo Mameli 149 today",
        "Via Goffredo Mameli 149",
        "STREET_ADDRESS",
    ),
    ("flat", "The parcel went to Flat 4B yesterday", "Flat 4B", "STREET_ADDRESS"),
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
    "Invalid reference 4111 1111 1111 1112 here",  # no card cue: the Luhn check decides
    "Reference A1234567 in the ledger",
    # hard negatives for the name, address, date and loose phone rules
    "Will the landlord return my deposit in May?",
    "What does Article 21 of the Constitution say?",
    "How do I file an FIR under section 154 CrPC?",
    "Is Section 498A of the IPC bailable?",
    "The hearing is on 12/05/2024.",
    "I paid Rs 50,000 in 2019-2020 as rent.",
    "Where in the world is www.python.org located?",
    "Can I make and sell Debian CDs?",
    "My Windows 11 laptop was stolen from Room 12",
    "Hi, what is the notice period for eviction?",
    "What the hell does clause 7 mean?",
    "The Supreme Court said so in 1978.",
    "Can I appeal after 30 days?",
    "I'm from India and my landlord is in Delhi",
]


@pytest.mark.parametrize("text", NOT_PII)
async def test_plain_text_has_no_spans(detector: PresidioPiiDetector, text: str) -> None:
    assert await detector.detect(text) == []


def test_configured_entity_types(detector: PresidioPiiDetector) -> None:
    assert set(detector.entity_types) == {e for *_, e in DETECTED}


def test_recognizers_and_threshold_are_injected() -> None:
    only_email = PresidioPiiDetector(recognizers=[presidio_detector.OfflineEmailRecognizer()])
    text = "Priya Sharma, priya@example.com, +91 98765 43210"
    assert [s.entity_type for s in only_email.detect_sync(text)] == ["EMAIL_ADDRESS"]
    strict = PresidioPiiDetector(score_threshold=0.9)
    assert strict.detect_sync("Teake Tuininga will be talking") == []  # scored 0.5


def test_missing_spacy_model_fails_instead_of_downloading() -> None:
    engine = SpacyModelNlpEngine(model="warden_no_such_model")
    with pytest.raises(SpacyModelMissing):
        engine.load()


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


@pytest.mark.parametrize(
    "address", ["asha.rao@hr.internal", "asha.rao@acme.local", "asha.rao@acme.corp", "a@b.co.uk"]
)
def test_emails_at_private_domains_are_masked_too(
    detector: PresidioPiiDetector, address: str
) -> None:
    text = f"My work email is {address}, please reply there."
    spans = detector.detect_sync(text)
    assert [(text[s.start : s.end], s.entity_type) for s in spans] == [(address, "EMAIL_ADDRESS")]


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


def test_word_lists_refuse_entries_yaml_did_not_read_as_text() -> None:
    assert config_words({"titles": ["Mr", "dr"]}, "titles") == ["mr", "dr"]
    with pytest.raises(ValueError, match="quote"):
        config_words({"not_names": ["yes", False]}, "not_names")  # an unquoted `no`
