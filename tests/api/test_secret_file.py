"""Without WARDEN_JWT_SECRET a secret is generated once, kept owner-only, and reused."""

from __future__ import annotations

import stat
from pathlib import Path

import jwt

from service.auth.secret_file import SECRET_FILE, load_or_create_secret
from service.bootstrap import token_service
from tests.api.conftest import KitFactory


def test_secret_is_created_owner_only_and_reused(tmp_path: Path) -> None:
    first = load_or_create_secret(tmp_path / "data")
    path = tmp_path / "data" / SECRET_FILE

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 32
    assert load_or_create_secret(tmp_path / "data") == first
    assert load_or_create_secret(tmp_path / "other") != first  # random per data folder
    assert [p.name for p in path.parent.iterdir()] == [SECRET_FILE]  # no temporary left over


def test_a_loosened_secret_file_is_tightened(tmp_path: Path) -> None:
    secret = load_or_create_secret(tmp_path)
    (tmp_path / SECRET_FILE).chmod(0o644)

    assert load_or_create_secret(tmp_path) == secret
    assert stat.S_IMODE((tmp_path / SECRET_FILE).stat().st_mode) == 0o600


async def test_tokens_survive_a_restart_without_a_configured_secret(make_kit: KitFactory) -> None:
    kit = await make_kit(jwt_secret=None)
    token = await kit.token_for("asha@example.org")
    secret = (kit.container.settings.data_dir / SECRET_FILE).read_text()

    assert jwt.decode(token, secret, algorithms=["HS256"], issuer="warden")["name"] == "Asha"
    restarted = token_service(kit.container.settings)  # a new process reads the same file
    assert restarted.verify(token).user_id == kit.store.users["asha@example.org"].id
