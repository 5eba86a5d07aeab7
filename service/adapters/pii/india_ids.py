"""Indian identifiers Presidio's recognizers miss or over-match (word lists: india.yaml).

Entity types (the placeholders the model sees, `<UPI_ID_1>`):
- UPI_ID: `handle@psp` with no dot after the provider ("name.123@okaxis", "98765...@ybl").
  An e-mail address always has a dot in its domain, so the two never compete.
- IN_BANK_ACCOUNT: 9 to 18 digits (spaces or dashes allowed) only near an account cue
  ("account", "a/c", "acct", "khata", "खाता"); a bare number is too often an amount or a case.
- IN_AADHAAR: twelve digits near an Aadhaar cue even when the Verhoeff check fails (a mistyped
  Aadhaar is still one); without a cue Presidio's InAadhaarRecognizer and its check decide.
- IN_PASSPORT: a letter and seven digits, only near a passport cue ("Reference A1234567"
  stays). Replaces Presidio's pattern, which refused a 0 in second or last place.
- IN_VOTER: EPIC, three letters and seven digits; in capitals anywhere, any case near a cue.
- IN_PAN: five letters, four digits, a letter. In capitals with a holder-type fourth letter
  (P person, C company, H HUF, F firm, A AOP, T trust, B BOI, L local body, J juridical,
  G government) anywhere; any case near a cue. Replaces Presidio's recognizer, whose weak
  patterns matched ordinary words ("contractor") next to "PAN".
- IN_PIN_CODE: six digits (first 1-9, "400 070" too) a few words after a PIN cue ("my pincode
  is 751001 and ...", "पिनकोड 302017"), anywhere in a sentence; a whole address with its PIN
  is one STREET_ADDRESS (india_address.py). Six digits alone are an amount or a case number.
- IN_IFSC: masked. An IFSC is a public branch code, not personal data on its own, but a
  user writes it beside their own account number, and it names their branch (a town, often a
  locality): with the name and the account masked it is the one clue left to who they are.
  No answer in the knowledge base needs a branch code, so masking it costs nothing.
"""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer

from service.adapters.pii.india_cues import CuedPattern, CuedRecognizer, india_settings

_DIGIT_RUN_START = r"(?<![\w.,/+-])(?<!\d\s)"
_DIGIT_RUN_END = r"(?![\w/-]|[.,]\d|\s\d)"


def upi_recognizer() -> CuedRecognizer:
    handles = india_settings()["upi_handles"]
    known = "|".join(sorted(handles, key=len, reverse=True))
    local = r"(?<![\w.@+-])[a-z0-9][\w.-]{1,255}"
    end = r"(?![\w@-]|\.[a-z0-9])"
    return CuedRecognizer(
        "UPI_ID",
        [
            CuedPattern("UPI known handle", rf"{local}@(?:{known}){end}", 0.9, 0.9),
            CuedPattern("UPI other handle", rf"{local}@[a-z][a-z0-9]{{1,63}}{end}", 0.6, 0.8),
        ],
        ["upi", "vpa", "upi id", "upi handle"],
    )


def bank_account_recognizer() -> CuedRecognizer:
    number = _DIGIT_RUN_START + r"\d(?:[ -]?\d){8,17}" + _DIGIT_RUN_END
    return CuedRecognizer(
        "IN_BANK_ACCOUNT",
        [CuedPattern("Account 9-18 digits", number, 0.0, 0.75)],
        india_settings()["account_cues"],
        before=40,
    )


def cued_aadhaar_recognizer() -> CuedRecognizer:
    number = _DIGIT_RUN_START + r"\d{4}[ -]?\d{4}[ -]?\d{4}" + _DIGIT_RUN_END
    return CuedRecognizer(
        "IN_AADHAAR",
        [CuedPattern("Aadhaar near a cue", number, 0.0, 0.8)],
        india_settings()["aadhaar_cues"],
        before=40,
    )


def passport_recognizer() -> CuedRecognizer:
    return CuedRecognizer(
        "IN_PASSPORT",
        [CuedPattern("Passport", r"(?<![\w/-])[a-z][ -]?\d{7}(?![\w/-])", 0.0, 0.8)],
        india_settings()["passport_cues"],
        before=50,
    )


def voter_recognizer() -> CuedRecognizer:
    epic = r"(?<![\w/-])[A-Z]{3}\d{7}(?![\w/-])"
    return CuedRecognizer(
        "IN_VOTER",
        [
            CuedPattern("EPIC capitals", epic, 0.6, 0.85, case_sensitive=True),
            CuedPattern("EPIC any case", epic, 0.0, 0.85),
        ],
        india_settings()["voter_cues"],
        before=50,
    )


def pan_recognizer() -> CuedRecognizer:
    shape = r"(?<![\w/-])[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z](?![\w/-])"
    loose = r"(?<![\w/-])[a-z]{5}\d{4}[a-z](?![\w/-])"
    return CuedRecognizer(
        "IN_PAN",
        [
            CuedPattern("PAN capitals", shape, 0.85, 0.9, case_sensitive=True),
            CuedPattern("PAN any case", loose, 0.0, 0.85),
        ],
        india_settings()["pan_cues"],
    )


def pin_code_recognizer() -> CuedRecognizer:
    pin = _DIGIT_RUN_START + r"[1-9]\d{2} ?\d{3}" + _DIGIT_RUN_END
    return CuedRecognizer(
        "IN_PIN_CODE",
        [CuedPattern("PIN after a cue", pin, 0.0, 0.8)],
        india_settings()["pin_cues"],
        before=30,
    )


def ifsc_recognizer() -> CuedRecognizer:
    code = r"(?<![\w/-])[A-Z]{4}0[A-Z0-9]{6}(?![\w/-])"
    return CuedRecognizer(
        "IN_IFSC",
        [
            CuedPattern("IFSC capitals", code, 0.7, 0.9, case_sensitive=True),
            CuedPattern("IFSC any case", code, 0.0, 0.85),
        ],
        india_settings()["ifsc_cues"],
    )


def india_id_recognizers() -> list[EntityRecognizer]:
    return [
        upi_recognizer(),
        bank_account_recognizer(),
        cued_aadhaar_recognizer(),
        passport_recognizer(),
        voter_recognizer(),
        pan_recognizer(),
        ifsc_recognizer(),
        pin_code_recognizer(),
    ]
