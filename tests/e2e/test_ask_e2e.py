"""Acceptance 2 and 3 through the real `warden ask` on the embedded defaults: every SPEC field
(also on an empty knowledge base), the reject / greeting / question paths and what each one
costs, JSON lines on stdin, and PII masked through the real Presidio stack."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from service.adapters.store.mongo_open import open_embedded_store
from tests.e2e.conftest import (
    ABUSE,
    BAIL_QUESTION,
    GREETING,
    PII_QUESTION,
    RAW_PII,
    Prepared,
    Run,
    assert_ask_fields,
    copy_data,
    distinct_parents,
    json_lines,
    warden,
)

MIXED_USER = "u-mixed"  # sends the abusive message, then a greeting, then a model-only insult
# no rule rejects it: the shipped insult model does (tests/integration/test_safety_shipped_models)
MODEL_ONLY_INSULT = "you have the brains of a doorknob"
# no rule decides these either: the shipped message models do (pipelines/safety/second_look.py)
SECOND_LOOK_USER = "u-second-look"
MESSAGE_MODEL_INSULT = "tum toh ekdum gobar ganesh nikle"  # abuse.model.messages
MESSAGE_MODEL_SMALL_TALK = "kaisa chal raha hai aapka din"  # greeting.model.messages
CLOSING_THANKS = "thank you sir, I understood the whole process of filing the complaint"
EMOJI_THANKS, FESTIVAL_WISH = "🙏🙏", "aapko diwali ki hardik shubhkamnaye"  # round 11 rules
REMARK = "winter in shimla is beautiful, snow everywhere"  # greeting.remark (round 25)
WON_THANKS = "thanks, the landlord returned my deposit after i sent the notice"  # what was won
# round 27: a greeting around a bare Hinglish insult, and Hindi news that the thing came
GREETED_INSULT = "good morning haraami"
CAME_THANKS = "बहुत शुक्रिया, बीमा कंपनी ने क्लेम पास कर दिया"
THING_WON_THANKS = "thank u, the airline refunded my cancelled ticket finally"


def test_ask_on_an_empty_knowledge_base_abstains_with_every_field(tmp_path: Path) -> None:
    run = warden(tmp_path / "data", "ask", BAIL_QUESTION, "--json")
    assert run.code == 0, run.err
    assert len(run.out.splitlines()) == 1
    result = run.json()
    assert_ask_fields(result)
    assert (result["route"], result["mode"]) == ("question", "abstained")
    assert result["sources"] == [] and result["confidence"] == 0
    assert "could not find" in result["response"].lower()
    assert result["calls"]["llm"] == 0
    assert result["calls"]["embed"] >= 1 and result["calls"]["vector"] >= 1  # it did look
    assert result["safe_query"] == BAIL_QUESTION and result["pii_found"] is False


@pytest.fixture(scope="module")
def batch(
    prepared: Prepared, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Run, list[dict[str, Any]], Path]:
    """One `warden ask` process-equivalent reading JSON lines from stdin (no --json flag)."""
    data = copy_data(prepared.data, tmp_path_factory.mktemp("ask"))
    lines = json_lines(
        {"question": ABUSE, "user": MIXED_USER},
        {"question": GREETING, "user": MIXED_USER, "name": "Asha"},
        {"question": BAIL_QUESTION, "user": "u-asker"},
        {"question": PII_QUESTION, "user": "u-pii"},
        {"question": MODEL_ONLY_INSULT, "user": MIXED_USER},
        {"question": MESSAGE_MODEL_INSULT, "user": SECOND_LOOK_USER},
        {"question": MESSAGE_MODEL_SMALL_TALK, "user": SECOND_LOOK_USER},
        {"question": CLOSING_THANKS, "user": SECOND_LOOK_USER},
        {"question": EMOJI_THANKS, "user": SECOND_LOOK_USER},
        {"question": FESTIVAL_WISH, "user": SECOND_LOOK_USER},
        {"question": REMARK, "user": SECOND_LOOK_USER},
        {"question": WON_THANKS, "user": SECOND_LOOK_USER},
        {"question": GREETED_INSULT, "user": SECOND_LOOK_USER},
        {"question": CAME_THANKS, "user": SECOND_LOOK_USER},
        {"question": THING_WON_THANKS, "user": SECOND_LOOK_USER},
    )
    run = warden(data, "ask", stdin=lines)
    assert run.code == 0, run.err
    return run, run.json_lines(), data


def test_stdin_json_lines_give_one_json_line_each_with_every_field(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    _, results, _ = batch
    routes = [r["route"] for r in results]
    assert routes == ["reject", "greeting", "question", "question", "reject"] + [
        "reject",
        "greeting",
        "greeting",
        "greeting",
        "greeting",
        "greeting",
        "greeting",
        "reject",
        "greeting",
        "greeting",
    ]
    for result in results:
        assert_ask_fields(result)


def test_two_lines_in_two_lines_out(prepared: Prepared, tmp_path: Path) -> None:
    data = copy_data(prepared.data, tmp_path)
    run = warden(data, "ask", "--json", stdin=json_lines({"question": "hi"}, {"question": ABUSE}))
    assert run.code == 0, run.err
    out = run.out.splitlines()
    assert len(out) == 2
    for line in out:
        assert_ask_fields(json.loads(line))


async def test_abusive_message_costs_nothing_and_leaves_no_trace(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    run, results, data = batch
    rejected = results[0]
    assert (rejected["route"], rejected["mode"]) == ("reject", None)
    assert rejected["calls"] == {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    assert rejected["sources"] == [] and rejected["safe_query"] is None
    # counted and traced, without the text
    event = _event_for(run, rejected["trace_id"])
    assert event["route"] == "reject" and "idiot" not in json.dumps(event)

    store = await open_embedded_store(data)  # the CLI process is done; the folder is free
    try:
        since = datetime.now(UTC) - timedelta(days=30)
        history = await store.recent_history(MIXED_USER, since=since, limit=100)
    finally:
        await store.close()
    # the same user's greeting right after was stored: the read can see this user's turns
    assert [r.role for r in history] == ["user", "assistant"]
    assert history[0].content == GREETING
    assert all("idiot" not in r.content.lower() and r.route != "reject" for r in history)
    assert all("doorknob" not in r.content for r in history)


def test_a_reject_decided_by_the_insult_model_costs_nothing_too(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    _, results, _ = batch
    rejected = results[4]
    assert (rejected["route"], rejected["mode"], rejected["safe_query"]) == ("reject", None, None)
    assert rejected["calls"] == {"llm": 0, "embed": 0, "vector": 0, "store": 0}


def test_the_second_look_keeps_the_reject_free_and_the_greeting_cheap(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    """SPEC guarantees 1 and 2 for the routes the message models, the closing thanks, emoji-only
    thanks, festival wishes, remarks about the day, thanks for what was won, a greeting around
    a bare insult, Hindi news that a thing came and a thanks that tells a thing won give."""
    _, results, _ = batch
    rejected, *greetings = results[5:12]
    for reject in (rejected, results[12]):
        assert (reject["route"], reject["safe_query"]) == ("reject", None)
        assert reject["calls"] == {"llm": 0, "embed": 0, "vector": 0, "store": 0}
    for greeted in [*greetings, results[13], results[14]]:
        assert (greeted["route"], greeted["mode"]) == ("greeting", None)
        assert greeted["calls"]["embed"] == 0 and greeted["calls"]["vector"] == 0
        assert greeted["sources"] == []


def test_greeting_never_embeds_or_searches(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    greeting = batch[1][1]
    assert (greeting["route"], greeting["mode"]) == ("greeting", None)
    assert greeting["calls"]["embed"] == 0 and greeting["calls"]["vector"] == 0
    assert greeting["calls"]["llm"] == 0  # no model configured: a template
    assert greeting["sources"] == [] and greeting["response"]


def test_question_on_the_sample_kb_has_sources_and_confidence(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    answer = batch[1][2]
    assert (answer["route"], answer["mode"]) == ("question", "extractive")
    assert 1 <= len(answer["sources"]) <= 3 and distinct_parents(answer["sources"])
    assert 0 < answer["confidence"] <= 100
    assert answer["sources"][0]["source"] == "bail-basics.txt"
    # sources come in the fused (dense + sparse) ranking; each score is that parent's cosine,
    # and the confidence is the best cosine x 100 (SPEC section 1)
    scores = [s["score"] for s in answer["sources"]]
    assert all(0 <= score <= 1 for score in scores)
    assert answer["confidence"] == pytest.approx(max(scores) * 100, abs=0.05)  # one decimal
    assert re.search(r"\[\d\]", answer["response"])  # extracted sentences carry citations
    calls = answer["calls"]
    assert calls["llm"] == 0 and calls["embed"] >= 1 and calls["vector"] >= 1


def test_pii_is_masked_through_the_real_stack(
    batch: tuple[Run, list[dict[str, Any]], Path],
) -> None:
    run, results, _ = batch
    answer = results[3]
    assert answer["route"] == "question" and answer["pii_found"] is True
    assert {"EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD"} <= set(answer["pii_entities"])
    safe = answer["safe_query"]
    assert all(value not in safe for value in RAW_PII), safe
    assert "<EMAIL_ADDRESS" in safe and "<PHONE_NUMBER" in safe and "<CREDIT_CARD" in safe
    assert "consumer complaint" in safe  # the rest of the question is kept

    event = _event_for(run, answer["trace_id"])
    assert event["pii_found"] is True
    assert {"EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD"} <= set(event["pii_entities"])
    logged = "\n".join(run.events) + run.err
    assert all(value not in logged for value in RAW_PII)


def _event_for(run: Run, trace_id: str) -> dict[str, Any]:
    """The one `warden.events` JSON line of this request."""
    events = [json.loads(line) for line in run.events]
    mine = [e for e in events if e.get("trace_id") == trace_id]
    assert len(mine) == 1, events
    return mine[0]
