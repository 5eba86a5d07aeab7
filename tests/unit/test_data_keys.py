"""The data keys (service/privacy/data_keys.py): WARDEN_DATA_KEY's format, the key file."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

import pytest

from service.privacy.data_keys import DataKeyError, load_keys, parse_keys

KEY = bytes(range(32))
STD, URL = base64.b64encode(KEY).decode(), base64.urlsafe_b64encode(KEY).decode()


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        (STD, [KEY]),
        (URL.rstrip("="), [KEY]),
        (f" {URL} , {base64.b64encode(bytes(32)).decode()} ", [KEY, bytes(32)]),
        (f"{URL}\n\n", [KEY]),
    ],
)
def test_keys_parse(text: str, keys: list[bytes]) -> None:
    assert parse_keys(text) == keys


@pytest.mark.parametrize(
    "text", ["", " , ", "not base64 !", base64.b64encode(bytes(16)).decode(), "QUJD" * 20]
)
def test_bad_keys_are_refused_without_echoing_them(text: str) -> None:
    with pytest.raises(DataKeyError) as refused:
        parse_keys(text)
    assert not text.strip() or text.strip() not in str(refused.value)


def test_the_key_file_is_created_once_owner_only(tmp_path: Path) -> None:
    first = load_keys(tmp_path, None)
    assert load_keys(tmp_path, None) == first and len(first[0]) == 32
    assert stat.S_IMODE((tmp_path / "data_key").stat().st_mode) == 0o600
    assert load_keys(tmp_path, URL) == [KEY]  # the environment wins


def test_a_bad_warden_data_key_stops_the_settings_without_echoing_it() -> None:
    from pydantic import ValidationError

    from service.settings import Settings

    bad = "c2VjcmV0LWJ1dC1zaG9ydA"
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, data_key=bad)  # type: ignore[call-arg, arg-type]
    assert "data_key" in str(refused.value) and bad not in str(refused.value)
    assert Settings(_env_file=None, data_key=" ").data_key is None  # type: ignore[call-arg, arg-type]
