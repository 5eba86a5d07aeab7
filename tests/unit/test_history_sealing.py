"""Masking a turn for storage and sealing its values (service/adapters/store/history_mask.py,
history_cipher.py), table-driven: the exact round trip, what stays in the clear, and what a
sealed value refuses to open for."""

from __future__ import annotations

import pytest

from pipelines.ports import PiiSpan
from service.adapters.store.history_cipher import HistoryCipher, SealError, key_id
from service.adapters.store.history_mask import mask_turn, restore, whole

EMAIL = "asha@example.org"


def spans_of(text: str, *values: tuple[str, str]) -> list[PiiSpan]:
    found = []
    for value, kind in values:
        start = text.index(value)
        found.append(PiiSpan(start, start + len(value), kind))
    return found


@pytest.mark.parametrize(
    ("question", "answer", "q_values", "masked_q", "masked_a"),
    [
        (  # a value the answer repeats is masked there too, even unseen by the detector
            f"Mail {EMAIL} please",
            f"We wrote to {EMAIL}.",
            [(EMAIL, "EMAIL_ADDRESS")],
            "Mail <EMAIL_ADDRESS_1> please",
            "We wrote to <EMAIL_ADDRESS_1>.",
        ),
        (  # the same value twice: one placeholder; two values: two numbers
            "call 98765 43210 or 98765 43211, yes 98765 43210",
            "ok",
            [("98765 43210", "PHONE_NUMBER"), ("98765 43211", "PHONE_NUMBER")],
            "call <PHONE_NUMBER_1> or <PHONE_NUMBER_2>, yes <PHONE_NUMBER_1>",
            "ok",
        ),
        (  # a placeholder the user typed is never reused, so it survives the round trip
            "I typed <IN_PAN_1> then ABCPE1234F",
            "Noted <IN_PAN_1>",
            [("ABCPE1234F", "IN_PAN")],
            "I typed <IN_PAN_1> then <IN_PAN_2>",
            "Noted <IN_PAN_1>",
        ),
        ("no personal data", "none here", [], "no personal data", "none here"),
    ],
)
def test_a_turn_is_masked_and_restored_exactly(
    question: str, answer: str, q_values: list[tuple[str, str]], masked_q: str, masked_a: str
) -> None:
    found = []
    for value, kind in q_values:  # every occurrence in the question
        start = 0
        while (start := question.find(value, start)) >= 0:
            found.append(PiiSpan(start, start + len(value), kind))
            start += len(value)
    stored_q, stored_a = mask_turn([(question, found), (answer, [])])
    assert (stored_q.text, stored_a.text) == (masked_q, masked_a)
    assert restore(stored_q.text, stored_q.values) == question
    assert restore(stored_a.text, stored_a.values) == answer
    for value, _ in q_values:
        assert value not in stored_q.text and value not in stored_a.text


def test_overlapping_and_out_of_range_spans_are_handled() -> None:
    text = "card 4111 1111 1111 1111 end"
    spans = [PiiSpan(5, 24, "CREDIT_CARD"), PiiSpan(10, 24, "PHONE_NUMBER"), PiiSpan(3, 99, "X")]
    (stored,) = mask_turn([(text, spans)])
    assert stored.text == "card <CREDIT_CARD_1> end"
    assert restore(stored.text, stored.values) == text


def test_whole_message_fallback_round_trips() -> None:
    stored = whole(f"secret {EMAIL}")
    assert EMAIL not in stored.text and restore(stored.text, stored.values) == f"secret {EMAIL}"


KEY_A, KEY_B = bytes(range(32)), bytes(range(1, 33))


def test_sealed_values_open_only_for_their_user_turn_and_role() -> None:
    cipher = HistoryCipher([KEY_A])
    sealed = cipher.seal({"EMAIL_ADDRESS_1": EMAIL}, user_id="u1", context="t1:user")
    assert EMAIL.encode() not in sealed.encode()
    assert cipher.open(sealed, user_id="u1", context="t1:user") == {"EMAIL_ADDRESS_1": EMAIL}
    for user_id, context in (("u2", "t1:user"), ("u1", "t2:user"), ("u1", "t1:assistant")):
        with pytest.raises(SealError):
            cipher.open(sealed, user_id=user_id, context=context)
    tampered = sealed[:-4] + ("AAAA" if not sealed.endswith("AAAA") else "BBBB")
    version, kid, _ = sealed.split(".")
    for damaged in (tampered, f"{version}.{kid}.AAAA", f"{version}.{kid}.!!", "v9.x.y", "junk"):
        with pytest.raises(SealError):
            cipher.open(damaged, user_id="u1", context="t1:user")


def test_a_keyring_seals_with_its_first_key_and_opens_with_any() -> None:
    old = HistoryCipher([KEY_A]).seal({"X_1": "v"}, user_id="u", context="c")
    rotating = HistoryCipher([KEY_B, KEY_A])
    assert rotating.open(old, user_id="u", context="c") == {"X_1": "v"}
    assert not rotating.sealed_with_primary(old)
    new = rotating.seal({"X_1": "v"}, user_id="u", context="c")
    assert rotating.sealed_with_primary(new) and key_id(KEY_B) in new
    with pytest.raises(SealError):
        HistoryCipher([KEY_A]).open(new, user_id="u", context="c")
