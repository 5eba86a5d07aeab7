"""The JWT signing secret: WARDEN_JWT_SECRET, or one generated on first start and kept in
data_dir/jwt_secret, readable by its owner only (mode 0600), and reused after."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
from pathlib import Path

from service.privacy.files import readable_by_owner_only

log = logging.getLogger("warden.security")
SECRET_FILE = "jwt_secret"


def load_or_create_secret(data_dir: Path) -> str:
    """Reads data_dir/jwt_secret, creating it atomically (O_CREAT|O_EXCL, 0600) if absent.

    The secret is written to a private temporary file first and then hard-linked into place,
    so a concurrent starter sees either no file or the complete one, never a partial write.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / SECRET_FILE
    if not path.exists():
        _create(path)
    readable_by_owner_only(path)
    secret = path.read_text(encoding="utf-8").strip()
    if len(secret) < 32:
        raise RuntimeError(
            f"{path} holds a secret shorter than 32 characters; delete it to regenerate"
        )
    return secret


def _write_exclusive(path: Path, secret: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret)
        handle.flush()
        os.fsync(handle.fileno())


def _create(path: Path) -> None:
    secret = secrets.token_urlsafe(48)
    temporary = path.with_name(f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    _write_exclusive(temporary, secret)
    try:
        os.link(temporary, path)  # atomic; fails if another process won the race: keep theirs
    except FileExistsError:
        pass
    except OSError:  # a filesystem without hard links: create in place, still exclusive
        with contextlib.suppress(FileExistsError):
            _write_exclusive(path, secret)
    finally:
        temporary.unlink(missing_ok=True)
