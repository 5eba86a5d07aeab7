"""The data keys that seal stored history (service/adapters/store/history_cipher.py).

From `WARDEN_DATA_KEY`: one or more keys separated by commas, each 32 random bytes in base64
(standard or URL-safe alphabet, padding optional). The first seals; the others still open
what they sealed (the state during a rotation). Without it: `DATA_DIR/data_key`, created on
first start (0600), one key a line, the first sealing. A key is made with
`python -c "import base64, os; print(base64.urlsafe_b64encode(os.urandom(32)).decode())"`.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
from pathlib import Path

from service.privacy.files import readable_by_owner_only

log = logging.getLogger("warden.security")
KEY_FILE = "data_key"
KEY_BYTES = 32


class DataKeyError(ValueError):
    """A data key that is not 32 bytes of base64 (the message never holds the key)."""


def new_key() -> bytes:
    return os.urandom(KEY_BYTES)


def encode_key(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).decode()


def parse_keys(text: str) -> list[bytes]:
    """Keys separated by commas or line breaks; the first one seals."""
    keys: list[bytes] = []
    for n, item in enumerate(text.replace("\n", ",").split(","), start=1):
        item = item.strip()
        if not item:
            continue
        padded = item + "=" * (-len(item) % 4)
        try:
            key = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            raise DataKeyError(f"data key {n} is not base64") from None
        if len(key) != KEY_BYTES:
            raise DataKeyError(f"data key {n} is {len(key)} bytes, not {KEY_BYTES}")
        keys.append(key)
    if not keys:
        raise DataKeyError("no data key given")
    return keys


def key_file(data_dir: Path) -> Path:
    return Path(data_dir) / KEY_FILE


def write_key_file(path: Path, keys: list[bytes]) -> None:
    """Atomically (temporary file, fsync, rename), owner-only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write("".join(encode_key(k) + "\n" for k in keys))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def load_keys(data_dir: Path, configured: str | None) -> list[bytes]:
    """`WARDEN_DATA_KEY` when set, else the key file (created with a new key if absent)."""
    if configured:
        return parse_keys(configured)
    path = key_file(data_dir)
    if not path.exists():
        _create(path)
    readable_by_owner_only(path)
    return parse_keys(path.read_text(encoding="ascii"))


def _create(path: Path) -> None:
    """A first key, linked into place so that a concurrent starter keeps the winner's."""
    temporary = path.with_name(f".{path.name}.new.{os.getpid()}")
    write_key_file(temporary, [new_key()])
    try:
        os.link(temporary, path)
        log.info("generated a data key in %s", path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink(missing_ok=True)
