"""GET /metrics: Prometheus text behind a static scrape token, counters fed by each chat."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.api.conftest import Kit, KitFactory
from tests.api.test_chat import ABUSIVE
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import seed_core

TOKEN = "scrape-" + "t" * 40
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(kit: Kit) -> Samples:
    response = await kit.client.get("/metrics", headers=SCRAPER)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def chat(kit: Kit, headers: dict[str, str], message: str, path: str = "/v1/chat") -> None:
    response = await kit.client.post(path, json={"message": message}, headers=headers)
    assert response.status_code == 200, response.text


async def test_counters_move_after_a_chat_and_a_reject(make_kit: KitFactory) -> None:
    kit = await make_kit(metrics_token=TOKEN)
    await seed_core(kit.index, kit.embedder)
    headers = await kit.headers_for("asha@example.org")
    before = await scrape(kit)
    assert value(before, "warden_chats_total", route="question", mode="extractive") == 0
    assert value(before, "warden_port_calls_total", kind="llm") == 0  # present from the start
    assert ("warden_port_calls_total", frozenset({("kind", "llm")})) in before

    await chat(kit, headers, "When must a landlord return the deposit? Mail asha@example.org")
    await chat(kit, headers, ABUSIVE)
    await chat(kit, headers, "good morning", path="/v1/chat/stream")  # streamed chats count too
    after = await scrape(kit)

    assert value(after, "warden_chats_total", route="question", mode="extractive") == 1
    assert value(after, "warden_chats_total", route="reject", mode="none") == 1
    assert value(after, "warden_chats_total", route="greeting", mode="none") == 1
    assert value(after, "warden_rejects_total") == 1
    assert value(after, "warden_pii_found_total") == 1
    assert value(after, "warden_pii_entities_total", entity_type="EMAIL_ADDRESS") == 1
    assert value(after, "warden_port_calls_total", kind="embed") == 2  # query + extractive
    assert value(after, "warden_port_calls_total", kind="vector") == 1
    assert value(after, "warden_port_calls_total", kind="store") == 3  # history, 2 saves
    assert value(after, "warden_port_calls_total", kind="llm") == 0
    assert value(after, "warden_chat_latency_seconds_count", route="reject") == 1
    assert value(after, "warden_chat_latency_seconds_count", route="question") == 1
    assert value(after, "warden_chat_confidence_count") == 1  # question chats only
    assert value(after, "warden_chat_confidence_sum") > 40


async def test_errors_and_model_tokens_are_counted(make_kit: KitFactory) -> None:
    # a cited answer: the answer gate refuses an uncited one (and the retry costs tokens too)
    model = FakeChatModel(fail=True, replies=["Within one month [1]."])
    kit = await make_kit(metrics_token=TOKEN, chat_model=model)
    await seed_core(kit.index, kit.embedder)
    headers = await kit.headers_for("asha@example.org")
    await chat(kit, headers, "When must a landlord return the security deposit?")
    samples = await scrape(kit)
    assert value(samples, "warden_chats_total", route="question", mode="degraded") == 1
    assert value(samples, "warden_chat_errors_total", code="error") == 1
    assert value(samples, "warden_port_calls_total", kind="llm") == 1

    model.fail = False
    await chat(kit, headers, "When must a landlord return the security deposit?")
    samples = await scrape(kit)
    assert value(samples, "warden_model_tokens_total", kind="prompt") == 10
    assert value(samples, "warden_model_tokens_total", kind="completion") == 5


async def test_each_app_has_its_own_registry(make_kit: KitFactory) -> None:
    busy, quiet = await make_kit(metrics_token=TOKEN), await make_kit(metrics_token=TOKEN)
    await chat(busy, await busy.headers_for("asha@example.org"), ABUSIVE)
    assert value(await scrape(busy), "warden_rejects_total") == 1
    assert value(await scrape(quiet), "warden_rejects_total") == 0


async def test_metrics_need_the_scrape_token(make_kit: KitFactory) -> None:
    kit = await make_kit(metrics_token=TOKEN)
    user_jwt = await kit.headers_for("asha@example.org")
    for headers in ({}, {"Authorization": "Bearer wrong"}, user_jwt):
        response = await kit.client.get("/metrics", headers=headers)
        assert response.status_code == 401 and response.json()["error"] == "not_authenticated"


async def test_metrics_are_open_without_a_token(kit: Kit) -> None:
    response = await kit.client.get("/metrics")
    assert response.status_code == 200 and "warden_rejects_total" in response.text
