"""AccessRules (service/auth/access.py), table-driven: which tokens a rule refuses, and that
a change is stored and applies at once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pipelines.ports import AccessRule, access_key
from service.auth.access import AccessRules
from service.errors import ServiceError

AT = datetime(2026, 1, 1, 12, 0, 0, 500_000, tzinfo=UTC)


class RulesOnly:
    """The access-rule part of AccountData, in memory."""

    def __init__(self) -> None:
        self.rules: dict[str, AccessRule] = {}

    async def access_rules(self) -> list[AccessRule]:
        return list(self.rules.values())

    async def put_access_rule(self, rule: AccessRule) -> None:
        self.rules[rule.key] = rule


@pytest.mark.parametrize(
    ("rule", "issued_at", "refused"),
    [
        (None, 0.0, None),
        (AccessRule("", revoked_before=AT), AT.timestamp() - 3600, "token_revoked"),
        (AccessRule("", revoked_before=AT), float(int(AT.timestamp())), "token_revoked"),
        (AccessRule("", revoked_before=AT), float(int(AT.timestamp()) + 1), None),
        (AccessRule("", revoked_before=AT), 0.0, "token_revoked"),  # no iat
        (AccessRule("", disabled=True), AT.timestamp() + 3600, "account_disabled"),
        (AccessRule("", revoked_before=AT, disabled=False), AT.timestamp() + 1, None),
    ],
)
async def test_which_tokens_a_rule_refuses(
    rule: AccessRule | None, issued_at: float, refused: str | None
) -> None:
    store = RulesOnly()
    if rule is not None:
        store.rules[access_key("u1")] = AccessRule(
            access_key("u1"), rule.revoked_before, rule.disabled
        )
    rules = AccessRules(store)
    await rules.refresh()
    rules.check("u2", issued_at)  # another user: never refused
    if refused is None:
        rules.check("u1", issued_at)
        return
    with pytest.raises(ServiceError) as error:
        rules.check("u1", issued_at)
    assert (error.value.status, error.value.code) == (401, refused)


async def test_a_change_is_stored_keyed_by_a_hash_and_applies_at_once() -> None:
    store = RulesOnly()
    rules = AccessRules(store, clock=lambda: AT)
    await rules.revoke("user-42")
    assert list(store.rules) == [access_key("user-42")] and "user-42" not in access_key("user-42")
    with pytest.raises(ServiceError):
        rules.check("user-42", AT.timestamp() - 1)
    await rules.set_disabled("user-42", True)
    assert rules.disabled("user-42") and store.rules[access_key("user-42")].revoked_before == AT
