"""Register and log in: answers never reveal whether an account exists; the signup switch."""

from __future__ import annotations

import jwt

from tests.api.conftest import PASSWORD, SECRET, Kit, KitFactory


async def test_register_answers_the_same_for_new_and_existing_accounts(kit: Kit) -> None:
    first = await kit.register("asha@example.org")
    again = await kit.register("Asha@Example.org", password="another password", name="Mallory")

    assert first.status_code == again.status_code == 202
    assert first.json() == again.json()
    assert len(kit.store.users) == 1
    assert kit.store.users["asha@example.org"].name == "Asha"  # the existing account is untouched


async def test_login_issues_a_bearer_token_whose_subject_is_opaque(kit: Kit) -> None:
    await kit.register("asha@example.org", name="Asha Rao")
    response = await kit.login("asha@example.org")

    assert response.status_code == 200
    body = response.json()
    assert body["token_type"] == "bearer"
    assert body["expires_in"] == 60 * 60
    claims = jwt.decode(body["access_token"], SECRET, algorithms=["HS256"], issuer="warden")
    user = kit.store.users["asha@example.org"]
    assert claims["sub"] == user.id
    assert "@" not in claims["sub"] and len(claims["sub"]) == 32
    assert claims["name"] == "Asha Rao" and claims["email"] == "asha@example.org"
    assert claims["exp"] - claims["iat"] == 60 * 60
    assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash


async def test_a_password_is_kept_as_typed_spaces_at_its_ends_included(kit: Kit) -> None:
    assert (await kit.register("asha@example.org", "  two words  ")).status_code == 202
    assert (await kit.login("asha@example.org", "  two words  ")).status_code == 200
    assert (await kit.login("asha@example.org", "two words")).status_code == 401
    assert (await kit.register("ravi@example.org", "  short  ")).status_code == 422


async def test_wrong_password_and_unknown_email_get_the_identical_answer(kit: Kit) -> None:
    await kit.register("asha@example.org")
    wrong_password = await kit.login("asha@example.org", "not the password")
    unknown_email = await kit.login("nobody@example.org", "not the password")

    assert wrong_password.status_code == unknown_email.status_code == 401
    assert wrong_password.json() == unknown_email.json()
    assert wrong_password.json()["error"] == "invalid_credentials"
    assert wrong_password.headers["www-authenticate"] == "Bearer"


async def test_signup_can_be_switched_off(make_kit: KitFactory) -> None:
    kit = await make_kit(allow_signup=False)
    response = await kit.register("asha@example.org")

    assert response.status_code == 403
    assert response.json()["error"] == "signup_disabled"
    assert kit.store.users == {}


async def test_register_validates_without_echoing_the_values(kit: Kit) -> None:
    planted = "planted-secret-9f1c"
    cases = [
        {"email": f"not-an-email-{planted}", "password": PASSWORD, "name": "A"},
        {"email": "a@example.org", "password": planted[:5], "name": "A"},  # too short
        {"email": "a@example.org", "password": PASSWORD, "name": ""},
        {"email": "a@example.org", "password": PASSWORD, "name": "A", "sub": planted},
    ]
    for body in cases:
        response = await kit.client.post("/v1/auth/register", json=body)
        assert response.status_code == 422, body
        assert response.json()["error"] == "invalid_request"
        assert planted not in response.text and planted[:5] not in response.text
    assert kit.store.users == {}


async def test_failed_login_attempts_are_rate_limited(make_kit: KitFactory) -> None:
    kit = await make_kit(login_attempts_per_minute=2)
    for _ in range(2):
        assert (await kit.login("asha@example.org", "guess")).status_code == 401
    response = await kit.login("asha@example.org", "guess")

    assert response.status_code == 429
    assert response.json()["error"] == "rate_limited"
    assert int(response.headers["retry-after"]) >= 1
