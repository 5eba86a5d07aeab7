"""Idempotency keys: the client's `Idempotency-Key` checked, and what the store keeps of it.

The store never sees the key itself. A record is filed under a digest of (user, key), its
request's fingerprint is an HMAC of the message under a key derived from the client's key,
and the stored answer is sealed with AES-GCM under another derived key. A copy of the store
shows no message or answer text, and cannot link a record to a key without that key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.errors import ServiceError

KEY_MIN, KEY_MAX = 16, 128
KEY_CHARS = r"A-Za-z0-9._:~+/=-"
KEY_PATTERN = rf"^[{KEY_CHARS}]{{{KEY_MIN},{KEY_MAX}}}$"
_KEY = re.compile(KEY_PATTERN)
_NONCE_BYTES = 12


def check_key(key: str) -> str:
    """The key, or 422 `invalid_idempotency_key` (never echoing it)."""
    if not _KEY.fullmatch(key):
        raise ServiceError(
            "invalid_idempotency_key",
            f"Idempotency-Key must be {KEY_MIN} to {KEY_MAX} letters, digits or "
            "- _ . : ~ + / = (a random UUID is a good key).",
            422,
        )
    return key


def _derived(key: str, user_id: str, purpose: str) -> bytes:
    return hmac.new(
        key.encode(), f"warden-idempotency/{purpose}/{user_id}".encode(), "sha256"
    ).digest()


@dataclass(frozen=True)
class KeyedRequest:
    """One user's request under one key, as the store may know it."""

    record_key: str  # the store's id of the record (user and key, hashed)
    fingerprint: str  # the message, keyed-hashed: the same key with another message differs
    seal_key: bytes  # AES-256-GCM key for the stored answer

    @classmethod
    def of(cls, user_id: str, key: str, message: str) -> KeyedRequest:
        record_key = hashlib.sha256(_derived(key, user_id, "record")).hexdigest()
        fingerprint = hmac.new(
            _derived(key, user_id, "fingerprint"), message.encode(), "sha256"
        ).hexdigest()
        return cls(record_key, fingerprint, _derived(key, user_id, "seal"))

    @property
    def turn_id(self) -> str:
        """The history's id for this request's turn."""
        return self.record_key[:32]

    def seal(self, answer: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = AESGCM(self.seal_key).encrypt(nonce, answer.encode(), self.record_key.encode())
        return base64.b64encode(nonce + sealed).decode()

    def open(self, sealed: str) -> str:
        """The answer; raises ValueError if it was not sealed for this request."""
        try:
            raw = base64.b64decode(sealed, validate=True)
            nonce, body = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:]
            return AESGCM(self.seal_key).decrypt(nonce, body, self.record_key.encode()).decode()
        except Exception as error:  # binascii.Error, InvalidTag, UnicodeDecodeError
            raise ValueError("the stored answer cannot be opened with this key") from error
