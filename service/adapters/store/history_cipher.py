"""HistoryCipher: the values behind a stored message's placeholders, sealed per user.

AES-256-GCM (`cryptography`). Each user's key is derived from the data key with HKDF-SHA256
(info = "warden-history-v1|" + user id), so one user's key opens nothing of another's. The
associated data binds a sealed map to its user, turn and role: moved to another message it
does not open. A sealed value is `v1.<key id>.<base64url(nonce | ciphertext)>`; the key id
(8 hex of a hash of the data key) says which data key of the keyring sealed it, so rotation
can find what is left to re-seal."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Sequence
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = "v1"
NONCE_BYTES = 12


def key_id(data_key: bytes) -> str:
    return hashlib.sha256(b"warden-data-key-id|" + data_key).hexdigest()[:8]


class SealError(Exception):
    """A sealed value that no key of the keyring opens (wrong key, tampered, moved)."""


class HistoryCipher:
    """Seals with the first data key; opens with any of them."""

    def __init__(self, data_keys: Sequence[bytes]) -> None:
        if not data_keys or any(len(k) != 32 for k in data_keys):
            raise ValueError("data keys are 32 bytes each, at least one")
        self._keys = {key_id(k): k for k in data_keys}
        self.primary = key_id(data_keys[0])

    def seal(self, values: dict[str, str], *, user_id: str, context: str) -> str:
        nonce = os.urandom(NONCE_BYTES)
        plain = json.dumps(values, ensure_ascii=False, sort_keys=True).encode()
        aead = _user_aead(self._keys[self.primary], user_id)
        sealed = aead.encrypt(nonce, plain, _associated(user_id, context))
        body = base64.urlsafe_b64encode(nonce + sealed).decode()
        return f"{VERSION}.{self.primary}.{body}"

    def open(self, sealed: str, *, user_id: str, context: str) -> dict[str, str]:
        try:
            version, kid, body = sealed.split(".", 2)
            data_key = self._keys[kid]
            raw = base64.urlsafe_b64decode(body)
        except (ValueError, KeyError) as error:
            raise SealError("no key of the keyring opens this value") from error
        if version != VERSION:
            raise SealError(f"unknown sealed format {version!r}")
        aead = _user_aead(data_key, user_id)
        try:
            plain = aead.decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated(user_id, context)
            )
            values = json.loads(plain)
        except (InvalidTag, ValueError) as error:  # a short or damaged body is a ValueError
            raise SealError("the sealed value does not belong here or was altered") from error
        return {str(k): str(v) for k, v in values.items()}

    def sealed_with_primary(self, sealed: str) -> bool:
        return sealed.split(".", 2)[1:2] == [self.primary]


def _associated(user_id: str, context: str) -> bytes:
    return f"{user_id}\x1f{context}".encode()


@lru_cache(maxsize=4096)
def _user_aead(data_key: bytes, user_id: str) -> AESGCM:
    info = b"warden-history-v1|" + user_id.encode()
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(data_key)
    return AESGCM(derived)
