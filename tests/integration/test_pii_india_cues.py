"""Round two of the Indian PII rules, table-driven through the real Presidio detector: card
numbers after a card cue whether or not they pass Luhn, PIN codes after a cue anywhere in a
sentence, names after Indian cues in any case, and the look-alikes that must stay."""

from __future__ import annotations

import pytest

from service.adapters.pii.presidio_detector import PresidioPiiDetector
from tests.integration.test_pii_india import masked_values, warmed_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return warmed_detector()


# A lone PIN after a cue may also be read as a (one-piece) address; either masks it.
CARD, PIN, PERSON = "CREDIT_CARD", "IN_PIN_CODE|STREET_ADDRESS", "PERSON"
FOUND = [
    # Cards after a cue; Luhn failures too (a mistyped card number is still the user's).
    ("card luhn ok", "my debit card 4111 1111 1111 1111 was used", "4111 1111 1111 1111", CARD),
    ("card luhn fails", "Invalid card 4111 1111 1111 1112 here", "4111 1111 1111 1112", CARD),
    ("atm card", "ATM card 6521 5800 4412 7788 got stuck", "6521 5800 4412 7788", CARD),
    ("card no", "card no 4594 3210 8876 5401 se paise kate", "4594 3210 8876 5401", CARD),
    ("credit card dashes", "credit card 5241-8810-3377-9045 cloned", "5241-8810-3377-9045", CARD),
    ("card hindi", "मेरे कार्ड 4026 1234 5678 9011 से पैसे", "4026 1234 5678 9011", CARD),
    ("card number is", "my card number is 9123 4567 8901 2345", "9123 4567 8901 2345", CARD),
    ("card 13 digits", "old card 4222222222223 in CIBIL", "4222222222223", CARD),
    # PIN codes after a cue, anywhere in a sentence
    ("pin mid", "my pincode is 751001 and the courier says no", "751001", PIN),
    ("pin code", "pin code 800001 wale area mein clinic?", "800001", PIN),
    ("postal code", "Postal code 600028, landlord keeps deposit", "600028", PIN),
    ("pin end", "What is the family court for pin 411014?", "411014", PIN),
    ("pin hindi", "पिनकोड 302017 है, वकील चाहिए", "302017", PIN),
    ("pin spaced", "pin code 400 070 me mediation centre?", "400 070", PIN),
    # names after Indian cues, any case
    ("my name is lower", "my name is priya sharma and he beats me", "priya sharma", PERSON),
    ("mera naam", "mera naam ramesh kumar hai, zamanat chahiye", "ramesh kumar", PERSON),
    ("naam hai", "mera naam hai seema, pati maarte hain", "seema", PERSON),
    ("ka naam", "beti ka naam kavita hai, TC nahi diya", "kavita", PERSON),
    ("unlisted", "my name is guddi and I clean houses", "guddi", PERSON),
    ("i am from", "I am Anjali from Patna and need help", "Anjali", PERSON),
    ("i am from lower", "i am deepak from ranchi, land grabbed", "deepak", PERSON),
    ("w/o before", "Sunita Devi w/o Ram Prasad wants pension", "Sunita Devi", PERSON),
    ("w/o after", "Sunita Devi w/o Ram Prasad wants pension", "Ram Prasad", PERSON),
    ("s/o", "Mohan Lal S/o Chhote Lal applied", "Chhote Lal", PERSON),
    ("d/o", "Rekha D/o Shankar Singh is a minor", "Rekha", PERSON),
    ("c/o", "Send the papers c/o Harish Chandra today", "Harish Chandra", PERSON),
    ("son of", "He is son of Jagdish, and threatened us", "Jagdish", PERSON),
    ("wife of", "She is the wife of Abdul Rahman, who left", "Abdul Rahman", PERSON),
    ("shri lower", "Shri ram avtar ji ki zameen par kabza", "ram avtar", PERSON),
    ("smt lower", "smt. geeta rani ko pension nahi mili", "geeta rani", PERSON),
    ("kumari", "Kumari anita ke saath bhedbhav hua", "anita", PERSON),
]


@pytest.mark.parametrize(
    ("text", "value", "entity"), [c[1:] for c in FOUND], ids=[c[0] for c in FOUND]
)
def test_cued_value_is_masked(
    detector: PresidioPiiDetector, text: str, value: str, entity: str
) -> None:
    found = masked_values(detector, text)
    assert any(v == value and e in entity.split("|") for v, e in found), found


NOT_PII = [
    # long numbers without a card cue: the Luhn check decides (case and reference numbers)
    "Reference number 4111 1111 1111 1112 was given by the helpline.",
    "Credit card company charges 36% interest, is that legal?",
    "Section 420 IPC and Section 66D IT Act both apply to card fraud.",
    # six digits without a PIN cue; "pin" as a verb far from the number
    "Case No. 110045 of 2022 is pending before the High Court.",
    "I paid 250000 to the builder in cash in 2019.",
    "Can I pin the blame on the contractor for the 150000 loss?",
    "The pincode field in the form is mandatory, but what if I am homeless?",
    # sentence-initial institutions and schemes are never people
    "Aadhaar Seva Kendra refused to update my address.",
    "Aadhaar is not mandatory for opening a bank account, right?",
    "Company has not paid gratuity after five years.",
    "The Company Law Board was replaced by the NCLT.",
    "Jan Dhan account mein overdraft kaise milta hai?",
    "Court ne next date 14 August di hai.",
    "Police refused to register my FIR.",
    "Lok Adalat ka award final hota hai kya?",
    "Is Section 138 NI Act applicable if the cheque bounced twice?",
    # name cues followed by ordinary words
    "my name is not on the voter list",
    "mera naam galat likha hai ration card mein",
    "voter id aur passport dono me naam alag hai",
    "I am worried from the start about this case",
    "She is the wife of the accused.",
]


@pytest.mark.parametrize("text", NOT_PII)
def test_look_alikes_are_not_masked(detector: PresidioPiiDetector, text: str) -> None:
    assert masked_values(detector, text) == []
