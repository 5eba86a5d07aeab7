"""IN_VEHICLE_REGISTRATION: Indian number plates, with or without spaces or hyphens.

- state code + district + series + number: "MH 12 AB 1234", "DL3CAF4567", "KA-05-MJ-2011",
  "DL 8S AB 1234" (Delhi's district digit and vehicle-class letter);
- the Bharat series: year + BH + four digits + one or two letters, "22 BH 1234 AA".
The state code must be one of india.yaml's `vehicle_states`. Written in capitals with series
letters and a four-digit number, a plate is masked anywhere; in lower case, without series
letters or with a short number it needs a vehicle cue nearby ("gaadi", "bike", "RTO").
Presidio's InVehicleRegistrationRecognizer is not used: it knows no spaced or hyphenated
plate, and its district tables reject valid new districts.
"""

from __future__ import annotations

from service.adapters.pii.india_cues import CuedPattern, CuedRecognizer, india_settings

_SEP = r"[ -]?"
_START = r"(?<![\w/-])"
_END = r"(?![\w/-])"


def vehicle_recognizer() -> CuedRecognizer:
    settings = india_settings()
    states = "|".join(sorted(settings["vehicle_states"]))
    district = r"\d{1,2}[A-Z]?"
    full = rf"{_START}(?:{states}){_SEP}{district}{_SEP}[A-Z]{{1,3}}{_SEP}\d{{4}}{_END}"
    short = rf"{_START}(?:{states}){_SEP}{district}{_SEP}(?:[A-Z]{{1,3}}{_SEP})?\d{{1,4}}{_END}"
    bharat = rf"{_START}\d\d{_SEP}BH{_SEP}\d{{4}}{_SEP}[A-Z]{{1,2}}{_END}"
    return CuedRecognizer(
        "IN_VEHICLE_REGISTRATION",
        [
            CuedPattern("Plate capitals", _upper(full, states), 0.85, 0.9, case_sensitive=True),
            CuedPattern("Plate any case", full, 0.0, 0.85),
            CuedPattern("Plate short", short, 0.0, 0.7),
            CuedPattern("Bharat series", bharat, 0.85, 0.9, case_sensitive=True),
            CuedPattern("Bharat series any case", bharat, 0.0, 0.85),
        ],
        settings["vehicle_cues"],
        before=50,
    )


def _upper(pattern: str, states: str) -> str:
    """The pattern with the (lower-case, configured) state codes in capitals."""
    return pattern.replace(states, states.upper())
