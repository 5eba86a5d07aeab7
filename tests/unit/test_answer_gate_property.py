"""Acceptance 1 of issue 15, as a property: whatever the model writes, no answer leaving the
service cites a passage that was not sent, or carries a placeholder or a personal value that
was not the user's; and no chat costs more than 1 + WARDEN_ANSWER_RETRIES model calls."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.answer_text import citations, normalised, personal_values, placeholders
from pipelines.runner import ChatOutcome, ChatPipeline
from tests.fakes.chat_model import FakeChatModel
from tests.unit._pipeline_kit import CORE_DOCS, NAME, USER, seeded_kit

QUESTION = "When must a landlord return the security deposit? Mail asha@example.org"
OWN = {"asha@example.org", NAME}  # what the user gave: it may come back
FOREIGN = [  # personal values the user never gave and no passage holds
    "ravi.k@example.com", "+91 98765 43210", "4539 1488 0343 6467", "ABCPK1234F",
    "10.1.2.3", "2345 6789 0123", "ravi@okaxis", "123-45-6789",
]  # fmt: skip
SENTENCES = [child for _, _, children in CORE_DOCS for child in children]
DEPOSIT = next(s for s in SENTENCES if "security deposit" in s)  # the passage ranked first
PLACEHOLDERS = ["<PERSON_1>", "<EMAIL_ADDRESS_1>", "<PERSON_2>", "<EMAIL_ADDRESS_2>",
                "< PHONE_NUMBER_1 >", "<IN_PAN>"]  # fmt: skip

fragment = st.one_of(
    st.sampled_from(SENTENCES),
    st.integers(0, 7).map(lambda n: f"[{n}]"),
    st.integers(0, 7).map(lambda n: f"https://example.org/a[{n}]"),
    st.sampled_from(PLACEHOLDERS),
    st.sampled_from(FOREIGN),
    st.sampled_from(sorted(OWN)),
    st.text(st.characters(codec="ascii", categories=["L", "N", "Zs", "P"]), max_size=40),
)
noise = st.lists(fragment, max_size=8).map(" ".join)
# answers that are mostly right: passage sentences cited [1][2][3] (only as many passages as
# were sent pass), sometimes with one risky fragment slipped in
grounded = st.builds(
    lambda said, risky, cited: " ".join([*said, risky, cited]),
    st.lists(st.sampled_from([DEPOSIT] * 4 + SENTENCES), min_size=1, max_size=3),
    st.one_of(st.just(""), st.just(""), fragment),
    st.sampled_from(["[1]", "[1][2]", "[1][2][3]", "[1, 4]"]),
)
reply = st.one_of(noise, grounded)


async def run(replies: list[str], retries: int) -> tuple[ChatOutcome, int]:
    kit = (await seeded_kit(chat_model=FakeChatModel(replies=replies))).with_config(
        answer_retries=retries
    )
    pipeline = ChatPipeline(kit.deps())
    outcome = await pipeline.answer(
        QUESTION, pipeline.classify(QUESTION), user_id=USER, user_name=NAME
    )
    return outcome, len(kit.chat_model.calls) if kit.chat_model else 0


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(replies=st.lists(reply, min_size=1, max_size=3), retries=st.integers(0, 2))
def test_no_answer_leaves_with_an_unsent_citation_or_a_value_not_the_users(
    replies: list[str], retries: int
) -> None:
    outcome, calls = asyncio.run(run(replies, retries))
    response = outcome.response
    assert outcome.calls.llm == calls <= 1 + retries
    assert all(1 <= n <= len(outcome.sources) for n in citations(response)), response
    assert placeholders(response) == [], response
    for value in FOREIGN:
        assert value not in response, response
    allowed = {normalised(v) for v in OWN} | {
        normalised(v) for text in SENTENCES for _, v in personal_values(text)
    }
    assert all(normalised(v) in allowed for _, v in personal_values(response)), response
    if outcome.gate_fallback:
        assert outcome.answer_attempts == 1 + retries
