"""A user's own data (issue 13, acceptance 4): after DELETE /v1/me, no file of the data folder
(mongoeco's SQLite files, the Qdrant Edge folder) holds that user's id, e-mail or uploaded
text, and their token gets 401; another user's account, history and upload are untouched,
and the vector index still takes writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.adapters.pii.presidio_detector import PresidioPiiDetector
from tests.api.documents_kit import chat_sources, upload
from tests.integration.privacy_kit import embedded_service, files_holding

pytestmark = pytest.mark.slow

VICTIM_TEXT = "The quokka sanctuary lease names plot nineteen beside the jacaranda grove."
OTHER_TEXT = "The axolotl hatchery licence renews every monsoon at the district office."
LATER_TEXT = "The pangolin shelter grant closes on the first working day of spring."


@pytest.fixture(scope="module")
def detector() -> PresidioPiiDetector:
    real = PresidioPiiDetector()
    real.warm()
    return real


async def test_erasing_me_leaves_nothing_of_me_and_keeps_the_others(
    tmp_path: Path, detector: PresidioPiiDetector
) -> None:
    data_dir = tmp_path / "data"
    async with embedded_service(tmp_path, detector) as service:
        client = service.client
        me = await service.headers_for("quokka.keeper@example.org", name="Mira Quokka")
        other = await service.headers_for("axolotl.keeper@example.org", name="Ravi Axolotl")
        for headers, text in ((me, VICTIM_TEXT), (other, OTHER_TEXT)):
            assert (await upload(client, headers, "notes.txt", text.encode())).status_code == 201
        sources = await chat_sources(client, me, "What does the quokka sanctuary lease name?")
        assert any("quokka" in s["preview"] for s in sources)
        await chat_sources(client, other, "When does the axolotl hatchery licence renew?")
        export = (await client.get("/v1/me/export", headers=me)).json()
        user_id = export["account"]["id"]
        assert export["account"]["email"] == "quokka.keeper@example.org"
        assert [d["name"] for d in export["documents"]] == ["notes.txt"]
        assert len(export["history"]) == 2
        mine = [user_id, "quokka.keeper@example.org", "quokka sanctuary", "Mira Quokka"]
        assert set(files_holding(data_dir, mine)) == set(mine)  # the scan does find them

        assert (await client.delete("/v1/me", headers=me)).status_code == 204

        refused = await client.get("/v1/chat/history", headers=me)
        assert refused.status_code == 401 and refused.json()["error"] == "token_revoked"
        form = {"username": "quokka.keeper@example.org", "password": "correct horse battery"}
        assert (await client.post("/v1/auth/token", data=form)).status_code == 401
        assert files_holding(data_dir, mine) == {}

        # the other user keeps everything, and the index still takes writes
        history = (await client.get("/v1/chat/history", headers=other)).json()["messages"]
        assert len(history) == 2
        sources = await chat_sources(client, other, "When does the axolotl hatchery licence renew?")
        assert any("axolotl" in s["preview"] for s in sources)
        assert (await upload(client, other, "more.txt", LATER_TEXT.encode())).status_code == 201
        sources = await chat_sources(client, other, "When does the pangolin shelter grant close?")
        assert any("pangolin" in s["preview"] for s in sources)
    assert files_holding(data_dir, mine) == {}


async def test_erasing_my_history_keeps_my_account(
    tmp_path: Path, detector: PresidioPiiDetector
) -> None:
    async with embedded_service(tmp_path, detector) as service:
        client = service.client
        me = await service.headers_for("history.only@example.org")
        message = {"message": "How do I file an RTI? Reach me at history.only@example.org"}
        assert (await client.post("/v1/chat", json=message, headers=me)).status_code == 200
        assert len((await client.get("/v1/chat/history", headers=me)).json()["messages"]) == 2
        assert (await client.delete("/v1/me/history", headers=me)).status_code == 204
        assert (await client.get("/v1/chat/history", headers=me)).json()["messages"] == []
        assert (await client.get("/v1/me/export", headers=me)).json()["account"]["local"]
        assert files_holding(tmp_path / "data", ["How do I file an RTI"]) == {}
