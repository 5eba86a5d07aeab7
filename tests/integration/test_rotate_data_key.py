"""`warden rotate-data-key` (service/privacy/rotation.py) on the embedded store: every message
is re-sealed under a new key and opens with it alone; history stored in the clear by an older
version is masked and sealed on the way; WARDEN_DATA_KEY rotates as "NEW,OLD"."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pipelines.ports import ChatRecord
from service.adapters.store.mongo_open import open_embedded_store
from service.bootstrap.privacy import open_rotation
from service.privacy.data_keys import encode_key, key_file, new_key
from tests.api.conftest import make_settings
from tests.fakes.detector import FakePiiDetector
from tests.integration.privacy_kit import embedded_service, files_holding

EMAIL = "rotate.me@example.org"
QUESTION = f"How do I file an RTI? Reach me at {EMAIL}"
LEGACY = "Old question from legacy.user@example.org stored in the clear"


async def _chat(tmp_path: Path, **settings: str) -> dict[str, str]:
    async with embedded_service(tmp_path, FakePiiDetector(), **settings) as service:
        headers = await service.headers_for("owner@example.org")
        response = await service.client.post(
            "/v1/chat", json={"message": QUESTION}, headers=headers
        )
        assert response.status_code == 200
        return headers


async def _history(tmp_path: Path, headers: dict[str, str], **settings: str) -> list[str]:
    async with embedded_service(tmp_path, FakePiiDetector(), **settings) as service:
        response = await service.client.get("/v1/chat/history", headers=headers)
        return [m["content"] for m in response.json()["messages"]]


async def _rotate(tmp_path: Path, **settings: str) -> dict[str, object]:
    async with open_rotation(make_settings(tmp_path, **settings), FakePiiDetector()) as rotation:
        report = await rotation.run()
    return report.__dict__


async def test_rotation_with_the_key_file(tmp_path: Path) -> None:
    headers = await _chat(tmp_path)
    data_dir = tmp_path / "data"
    old_key = key_file(data_dir).read_text()
    store = await open_embedded_store(data_dir)  # a turn an older version stored in the clear
    at = datetime.now(UTC)
    await store.save_turn(
        [ChatRecord("legacy-user", "user", LEGACY, at, "legacy-turn", "question")]
    )
    await store.close()

    report = await _rotate(tmp_path)
    assert (report["resealed"], report["sealed_from_clear"], report["unchanged"]) == (2, 1, 0)
    new_text = key_file(data_dir).read_text()
    assert new_text != old_key and len(new_text.strip().splitlines()) == 1
    assert files_holding(data_dir, ["legacy.user@example.org"]) == {}
    shown = await _history(tmp_path, headers)
    assert shown[0] == QUESTION and len(shown) == 2  # opens with the new key

    key_file(data_dir).write_text(old_key)  # the old key alone opens nothing any more
    shown = await _history(tmp_path, headers)
    assert EMAIL not in shown[0] and "<EMAIL_ADDRESS_1>" in shown[0]


async def test_rotation_with_the_environment(tmp_path: Path) -> None:
    old, new = encode_key(new_key()), encode_key(new_key())
    headers = await _chat(tmp_path, data_key=old)
    report = await _rotate(tmp_path, data_key=old)  # one key: nothing to rotate to
    assert report["key_changed"] is False and report["unchanged"] == 2
    report = await _rotate(tmp_path, data_key=f"{new},{old}")
    assert report["key_changed"] is True and report["resealed"] == 2
    assert (await _history(tmp_path, headers, data_key=new))[0] == QUESTION
    assert not key_file(tmp_path / "data").exists()


def test_the_command_prints_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.main import main

    asyncio.run(_chat(tmp_path))
    monkeypatch.setenv("WARDEN_DATA_DIR", str(tmp_path / "data"))
    assert main(["rotate-data-key", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["resealed"] == 2 and counts["key_source"] == "file"
