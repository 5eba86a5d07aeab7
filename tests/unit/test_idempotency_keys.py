"""Idempotency keys: which keys are taken, and what the store may know of a keyed request."""

from __future__ import annotations

import pytest

from service.errors import ServiceError
from service.idempotency_keys import KeyedRequest, check_key

UUID = "3f1c9a52-7d4e-4b8a-9c2f-5e6d7a8b9c0d"


@pytest.mark.parametrize(
    ("key", "valid"),
    [(UUID, True), ("a" * 16, True), ("a" * 128, True), ("01HF8Z3K9Q7W2X4Y6V8T0R2P4N", True),
     ("dGVzdC1rZXktYmFzZTY0Lw==", True), ("scope:order.42~retry_1", True), ("a" * 15, False),
     ("a" * 129, False), ("with space here!", False), ("tab\there-and-more", False),
     ("ключ-ключ-ключ-ключ", False), ("semi;colon;is;not;ok", False), ("", False),
     (UUID + "\n", False)],
)  # fmt: skip
def test_check_key(key: str, valid: bool) -> None:
    if valid:
        assert check_key(key) == key
    else:
        with pytest.raises(ServiceError) as refused:
            check_key(key)
        assert (refused.value.code, refused.value.status) == ("invalid_idempotency_key", 422)
        assert key not in refused.value.detail or not key


def test_a_request_is_known_only_by_digests() -> None:
    base = KeyedRequest.of("u-1", UUID, "my card is 4111 1111 1111 1111")
    assert base == KeyedRequest.of("u-1", UUID, "my card is 4111 1111 1111 1111")
    other_user = KeyedRequest.of("u-2", UUID, "my card is 4111 1111 1111 1111")
    other_key = KeyedRequest.of("u-1", UUID[::-1], "my card is 4111 1111 1111 1111")
    other_message = KeyedRequest.of("u-1", UUID, "another question")

    assert len({base.record_key, other_user.record_key, other_key.record_key}) == 3
    assert other_message.record_key == base.record_key  # same record: the message differs
    assert other_message.fingerprint != base.fingerprint
    assert len(base.turn_id) == 32 and base.turn_id != other_user.turn_id
    assert UUID not in base.record_key + base.fingerprint + base.turn_id


def test_a_sealed_answer_opens_only_for_its_request() -> None:
    mine = KeyedRequest.of("u-1", UUID, "hi")
    sealed = mine.seal('{"response": "asha@example.org"}')

    assert "asha" not in sealed
    assert mine.open(sealed) == '{"response": "asha@example.org"}'
    assert mine.seal("same") != mine.seal("same")  # a fresh nonce each time
    for stranger in (KeyedRequest.of("u-2", UUID, "hi"), KeyedRequest.of("u-1", "k" * 20, "hi")):
        with pytest.raises(ValueError, match="cannot be opened"):
            stranger.open(sealed)
    with pytest.raises(ValueError, match="cannot be opened"):
        mine.open("not base64!")
