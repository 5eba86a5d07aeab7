"""Round three of the Indian PII rules, table-driven through the real Presidio detector: a
message written all in lower case in Hinglish holds no person in its everyday words, a run next
to a place word (thana, village, court) is a place, and a case number of a year ("234/2023")
is no house number; round four: loans, car makes, large cities and "nagar nigam" are no
person, and a name after a Hinglish relative ("mere chacha Ramkishan") is one, as is a listed
Devanagari name after a cue or with a second name ("मेरे पति सुनील कुमार"). Names and
addresses next to them are still masked."""

from __future__ import annotations

import pytest

from service.adapters.pii.presidio_detector import PresidioPiiDetector
from tests.integration.test_pii_india import masked_values, warmed_detector


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    return warmed_detector()


NOT_PII = [
    # everyday Hinglish in lower case
    "wo maayke chali gayi bacche ko leke, custody ke liye kya karna padega",
    "bolta h teri video viral kar dunga, cyber cell jau ya thane?",
    "bill bhara tha fir bhi late fee lag gayi aur cibil kharab kar diya",
    "company bolti hai records me galat likha hai. ab kya karu",
    "cyber fraud hua to complaint karni hai ya nahi? dono karna padega kya",
    # places next to a place word
    "FIR thana Kotwali mein darj hui thi, ab kya hoga?",
    "The case is pending in Tis Hazari court since 2019.",
    "CC 1123/2021 pending in Metropolitan Magistrate court, Saket.",
    "village Rampur ke patwari ne zameen ka record badal diya",
    "Sitapur police station refused to take my complaint.",
    # case numbers of a year are not house numbers
    "Case 4471/2020 Tis Hazari court me chal raha hai",
    "FIR No. 234/2023, thana Kotwali, what is the status?",
    "Appeal 889/2019 Allahabad High Court was dismissed.",
    # round four: loans, car makes, a city's corporation, large cities
    "bank manager loan ke liye rishwat maang raha hai",
    "My Maruti Swift was towed by the traffic police, what can I do?",
    "Nagar nigam ne bina notice ke dukan tod di",
    "Marathahalli. Bangalore me koi free lawyer?",
    # Devanagari: everyday words, and words that are also names, without a cue or a second name
    "मेरे पति रोज शराब पीकर मारते हैं",
    "पूजा के लिए छुट्टी नहीं दी",
    "गीता पर हाथ रखकर गवाही दी",
    "भारत सरकार ने नियम बदल दिया",
    "मालिक सेठ ने पैसे नहीं दिए",
    "दोनों में मेरा नाम अलग-अलग स्पेलिंग में है",  # unlisted words after a name cue
]


@pytest.mark.parametrize("text", NOT_PII)
def test_places_case_numbers_and_everyday_hinglish_are_not_masked(
    detector: PresidioPiiDetector, text: str
) -> None:
    assert masked_values(detector, text) == []


FOUND = [
    ("cued name lower", "mera naam pradeep kushwaha hai, kya karna padega", "pradeep kushwaha"),
    ("capitalised pair", "My neighbour Ramesh Yadav threatens me daily", "Ramesh Yadav"),
    ("name before place", "Sunita Devi of village Rampur needs a lawyer", "Sunita Devi"),
    ("after a Hinglish relative", "Mere chacha Ramkishan ne zameen le li", "Ramkishan"),
    ("after saas", "meri saas Kamla roz ladti hai", "Kamla"),
    ("Devanagari pair", "मेरे पति सुनील कुमार का पासपोर्ट खो गया", "सुनील कुमार"),
    ("Devanagari after pati", "मेरे पति सुनील का पासपोर्ट खो गया", "सुनील"),
    ("Devanagari name cue", "मेरा नाम पूजा है", "पूजा"),
    ("Devanagari title", "श्री राम प्रसाद ने जमीन बेच दी", "राम प्रसाद"),
]


@pytest.mark.parametrize(("text", "value"), [c[1:] for c in FOUND], ids=[c[0] for c in FOUND])
def test_names_around_them_are_still_masked(
    detector: PresidioPiiDetector, text: str, value: str
) -> None:
    assert any(v == value and e == "PERSON" for v, e in masked_values(detector, text))


def test_a_house_number_with_a_slash_is_still_an_address(detector: PresidioPiiDetector) -> None:
    text = "I live at 12/3 MG Road, Indiranagar, Bengaluru 560038, landlord wants me out"
    assert any(e == "STREET_ADDRESS" and "12/3" in v for v, e in masked_values(detector, text))
