"""Indian identifiers and addresses through the real Presidio detector, table-driven: each
recognizer's true positives, then look-alikes that must stay (service/adapters/pii/india_*)."""

from __future__ import annotations

import pytest

from pipelines.masking import mask_request, spans_to_mask
from service.adapters.pii.presidio_detector import PresidioPiiDetector


def warmed_detector() -> PresidioPiiDetector:
    real = PresidioPiiDetector()
    real.warm()
    return real


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return warmed_detector()


def masked_values(detector: PresidioPiiDetector, text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.entity_type) for s in detector.detect_sync(text)]


FOUND = [
    # UPI ids: known and unknown providers, digits, dots, hyphens; never an e-mail's domain
    ("upi okaxis", "My UPI id is name.123@okaxis", "name.123@okaxis", "UPI_ID"),
    ("upi phone", "paid to 9876543210@ybl yesterday", "9876543210@ybl", "UPI_ID"),
    ("upi paytm", "mera upi 7065432198@paytm hai", "7065432198@paytm", "UPI_ID"),
    ("upi upi", "sent money to rahul77@upi by mistake", "rahul77@upi", "UPI_ID"),
    ("upi ibl end", "Fraudster's id: refund-desk@ibl.", "refund-desk@ibl", "UPI_ID"),
    ("upi axl", "collect request from kyc.update@axl", "kyc.update@axl", "UPI_ID"),
    ("upi unknown psp", "UPI: shopkeeper@newbank please", "shopkeeper@newbank", "UPI_ID"),
    # number plates
    ("plate spaced", "A truck MH 12 AB 1234 hit me", "MH 12 AB 1234", "IN_VEHICLE_REGISTRATION"),
    ("plate glued", "My car DL3CAF4567 was towed", "DL3CAF4567", "IN_VEHICLE_REGISTRATION"),
    ("plate dashes", "The bus KA-05-MJ-2011 hit me", "KA-05-MJ-2011", "IN_VEHICLE_REGISTRATION"),
    ("plate bharat", "Seized 22 BH 1234 AA at a check", "22 BH 1234 AA", "IN_VEHICLE_REGISTRATION"),
    ("plate delhi class", "scooty DL 8S AB 1234 chori", "DL 8S AB 1234", "IN_VEHICLE_REGISTRATION"),
    ("plate lower", "my bike up16 ax 4432 gone", "up16 ax 4432", "IN_VEHICLE_REGISTRATION"),
    # bank accounts, only near an account word (English, Hinglish, Hindi)
    ("account", "My account number 20345678912 is frozen", "20345678912", "IN_BANK_ACCOUNT"),
    ("a/c", "A/c 0112104000123456 IDBI", "0112104000123456", "IN_BANK_ACCOUNT"),
    ("acct", "HDFC acct 50100234567812 debited", "50100234567812", "IN_BANK_ACCOUNT"),
    ("khata", "mera khata 30987654321 band hai", "30987654321", "IN_BANK_ACCOUNT"),
    ("khata hindi", "मेरे खाते 1234567890123 से पैसे कटे", "1234567890123", "IN_BANK_ACCOUNT"),
    ("grouped", "into account 5021 0045 6789 12 monthly", "5021 0045 6789 12", "IN_BANK_ACCOUNT"),
    # passports (letter + 7 digits near "passport"), voter ids (EPIC)
    ("passport", "My passport number is K8765432", "K8765432", "IN_PASSPORT"),
    ("passport zero", "Old passport L0987654 expires", "L0987654", "IN_PASSPORT"),
    ("passport hindi", "मेरा पासपोर्ट नंबर M1234567 है", "M1234567", "IN_PASSPORT"),
    ("passport lower", "passport number: p2345678, renewal", "p2345678", "IN_PASSPORT"),
    ("epic", "EPIC no. XYZ9876543 was misused", "XYZ9876543", "IN_VOTER"),
    ("epic no cue", "I gave ABC1234567 to the bank", "ABC1234567", "IN_VOTER"),
    ("epic lower", "mera voter id klm7654321 kho gaya", "klm7654321", "IN_VOTER"),
    # Aadhaar with the Verhoeff check, or any 12 digits near "Aadhaar"
    ("aadhaar verhoeff", "Use 2345 6789 0124 here", "2345 6789 0124", "IN_AADHAAR"),
    ("aadhaar cue", "mera aadhar 9876 5432 1012 hai", "9876 5432 1012", "IN_AADHAAR"),
    ("aadhaar hindi", "मेरा आधार नंबर 5678 1234 9012 है", "5678 1234 9012", "IN_AADHAAR"),
    # PAN: real PAN shape in capitals, any case near "PAN"
    ("pan", "My PAN is ABCPE1234F", "ABCPE1234F", "IN_PAN"),
    ("pan no cue", "a loan on BNZPM2501F in my name", "BNZPM2501F", "IN_PAN"),
    ("pan lower", "pan: ejvps7788q is it needed", "ejvps7788q", "IN_PAN"),
    ("ifsc", "IFSC SBIN0004567 of my branch", "SBIN0004567", "IN_IFSC"),
    # phones in Indian formats
    ("phone +91", "Call +91 98765 43210 today", "+91 98765 43210", "PHONE_NUMBER"),
    ("phone 0", "mera mobile 09812345678 hai", "09812345678", "PHONE_NUMBER"),
    ("phone bare", "my number is 9876543210", "9876543210", "PHONE_NUMBER"),
    ("phone dashed", "Contact +91-9123456789 now", "+91-9123456789", "PHONE_NUMBER"),
    ("phone 5+5", "his number is 98201 23456", "98201 23456", "PHONE_NUMBER"),
    ("card", "RuPay debit card 4111 1111 1111 1111 stolen", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("email", "mera email raju1987@rediffmail.com hai", "raju1987@rediffmail.com", "EMAIL_ADDRESS"),
    ("dob", "DOB: 02-11-1985 on my PAN", "02-11-1985", "DATE_OF_BIRTH"),
    ("dob hindi", "मेरी जन्म तिथि 12/06/1958 है", "12/06/1958", "DATE_OF_BIRTH"),
    ("dob hinglish", "janm tithi 10-10-1948 hai", "10-10-1948", "DATE_OF_BIRTH"),
    # a unit and its number, lower case, with a number that is not a count after it
    ("flat lower", "my address is flat 12 b wing", "flat 12", "STREET_ADDRESS"),
    ("flat before a name", "we stay in flat 204 shanti apartments", "flat 204", "STREET_ADDRESS"),
    # "din", "sal" open place names: no count after a unit number
    ("flat before din", "mera ghar flat 5 din dayal apartments me hai", "flat 5", "STREET_ADDRESS"),
    ("flat before sal", "mere ghar ka pata flat 9 sal vihar hai", "flat 9", "STREET_ADDRESS"),
]


@pytest.mark.parametrize(
    ("text", "value", "entity"), [c[1:] for c in FOUND], ids=[c[0] for c in FOUND]
)
def test_indian_identifier_is_masked(
    detector: PresidioPiiDetector, text: str, value: str, entity: str
) -> None:
    assert (value, entity) in masked_values(detector, text)


ADDRESSES = [
    "Flat 12, Shanti Nagar, Andheri East, Mumbai 400069",
    "H.No. 45, Gali No. 3, Rampur village, Post Sitapur, Dist. Barabanki, UP - 225001",
    "near Hanuman mandir, Sector 15, Gurgaon, Haryana 122001",
    "23/4, Gandhi Road, Karol Bagh, New Delhi - 110005",
    "Village Khairpur, PO Chandpur, Tehsil Sadar, District Muzaffarpur, Bihar 842001",
    "मकान नं. 12, गली नं. 4, शिव नगर, Jhansi 284001",
    "No. 18, Kamaraj Salai, Madurai, Tamil Nadu 625001",
]


@pytest.mark.parametrize("address", ADDRESSES)
@pytest.mark.parametrize("frame", ["I live at {}. Help!", "Address: {}", "{} is my home"])
def test_a_whole_address_is_one_span(
    detector: PresidioPiiDetector, address: str, frame: str
) -> None:
    text = frame.format(address)
    spans = [(v, e) for v, e in masked_values(detector, text) if address in v or v in address]
    assert spans == [(address, "STREET_ADDRESS")]


NOT_PII = [
    "The contractor has not paid wages for three months.",
    "CONTRACTOR LICENCE CANCELLED, is the principal employer liable?",
    "My PAN is with the contractor who owes me 4500 rupees.",
    "Is Section 498A of the IPC bailable?",
    "Maintenance under Section 125 CrPC after divorce",
    "What does Article 21 of the Constitution protect?",
    "An injunction under Order XXXIX of the CPC",
    "My case CS 123/2019 has been adjourned ten times.",
    "FIR No. 45/2023 was registered, no chargesheet yet.",
    "My FIR number 0456/2024 was filed at the police station.",
    "Case number 01234 / 2021 is still pending, what can I do?",
    "Appeal No. 78/2020 was decided in my favour.",
    "The landlord demands Rs 50,000 as deposit.",
    "I lent ₹1,20,000 to a friend in 2019.",
    "Rs 500000 was the amount in the cheque.",
    "The next hearing is on 15/07/2024 in the district court.",
    "Is there a Lok Adalat in Mumbai?",
    "Are there legal aid clinics in Patna, Lucknow and Jaipur?",
    "Lucknow, Uttar Pradesh has a High Court bench.",
    "Contact the District Legal Services Authority (DLSA) in Sitapur.",
    "The Bharatiya Nagarik Suraksha Sanhita replaced the CrPC.",
    "What is BNS Section 318 and IPC 420?",
    "ABCDE1234F is not a valid PAN, the fourth letter is wrong.",
    "Writ Petition (Civil) No. 1234 of 2022 was dismissed.",
    "W.P. 5678/2019 in the Karnataka High Court",
    "Sections 3, 4 and 5 of the Act apply.",
    "Call the cyber crime helpline 1930 or 112 in an emergency.",
    "The gram panchayat of the village met on 2 October 2023.",
    "How do I reach the consumer commission? My account of events is long.",
    "I paid 2,00,000 into the account of the builder in 2021.",
    "Reference A1234567 in the ledger",
    # a unit word before a count is no address; romanised Hindi verbs that are names elsewhere
    "builder ne flat 3 saal late diya, kya consumer forum me ja sakte h",
    "flat 2 years late mila, room 5 days se band hai",
    "anticipatory bail kia hoti h aur kab leni chahiye",
    "malik ne bijli pani kaat diya taaki hum ghar chhod de",
    "budhe maa baap ko akela chhod dena kya crime hai? saza hoti hai kya",
]


@pytest.mark.parametrize("text", NOT_PII)
def test_look_alikes_are_not_masked(detector: PresidioPiiDetector, text: str) -> None:
    assert masked_values(detector, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "My address is H.No. 45, Rampur village, Post Sitapur, Dist. Barabanki 225001.",
        "I am from Rampur village, post office Sitapur, what is the Lok Adalat date?",
        "Post Sitapur, Dist. Barabanki — can the tehsildar refuse mutation?",
    ],
)
def test_village_and_post_office_names_are_never_people(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert all(entity != "PERSON" for _, entity in masked_values(detector, text))


async def test_safe_query_keeps_the_city_of_a_question(detector: PresidioPiiDetector) -> None:
    masked = await mask_request(
        "Is there a Lok Adalat in Mumbai? I live at Flat 12, Shanti Nagar, Mumbai 400069.",
        [],
        user_name="",
        detector=detector,
        allowlist=frozenset(),
    )
    assert masked.safe_query == "Is there a Lok Adalat in Mumbai? I live at <STREET_ADDRESS_1>."


async def test_allowlisted_corpus_terms_stay(detector: PresidioPiiDetector) -> None:
    """A value the knowledge base itself holds (an authority's address) is not the user's."""
    office = "Jamnagar House, Shahjahan Road, New Delhi 110011"
    corpus = f"Write to NALSA at {office}."
    terms = frozenset(corpus[s.start : s.end] for s in detector.detect_sync(corpus))
    assert office in terms
    question = f"Can I post my application to {office}?"
    assert await spans_to_mask(question, detector, user_name="", allowlist=terms) == []
    assert await spans_to_mask(question, detector, user_name="", allowlist=frozenset())
