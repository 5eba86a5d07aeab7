"""Follow-up questions with history sealed at rest: the history window reaches the pipeline
restored, so it is masked together with the new question in one request's vault (a value of
the history and another of the question get different placeholders), as before sealing."""

from __future__ import annotations

from tests.api.conftest import KitFactory
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import seed_core

FIRST = "When must a landlord return the security deposit? Mail first.mail@example.org"
FOLLOW_UP = "When must a landlord return the deposit? Now mail second.mail@example.org"


async def test_the_history_window_is_restored_then_masked_with_the_question(
    make_kit: KitFactory,
) -> None:
    model = FakeChatModel(replies=["Within one month [1]."])
    kit = await make_kit(chat_model=model)
    await seed_core(kit.index, kit.embedder)
    headers = await kit.headers_for("asha@example.org", name="Asha Rao")
    for message in (FIRST, FOLLOW_UP):
        response = await kit.client.post("/v1/chat", json={"message": message}, headers=headers)
        assert response.status_code == 200 and response.json()["mode"] == "generated"

    stored = [r.content for r in kit.store.chats.values()]
    assert not any("mail@example.org" in text for text in stored)  # at rest: masked
    sent = "\n".join(m.content for m in model.last_messages)
    assert "<EMAIL_ADDRESS_1>" in sent and "<EMAIL_ADDRESS_2>" in sent  # two values, two names
    assert "mail@example.org" not in sent
