"""AccessRules: revoked tokens and disabled accounts, checked on every authenticated request.

The store's `access_rules` (pipelines/ports/accounts.py) are held in memory, so the check is a
dict lookup after the token cache, never a store call: a token issued (`iat`) at or before
its user's `revoked_before` gets 401 `token_revoked`, any token of a disabled account 401
`account_disabled`. Changes made in this process apply at once; those made by another
process (`warden users` on a MongoDB deployment) when the rules are next refreshed (every
30 s, with the history outbox replay in service/app.py). A token without `iat` counts as
issued at the epoch."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Protocol

from pipelines.ports import AccessRule, StoreUnavailable, access_key
from service.auth.jwt_checks import unauthorized

log = logging.getLogger("warden.auth")


class RuleStore(Protocol):
    """The part of the AccountData port the rules need."""

    async def access_rules(self) -> list[AccessRule]: ...

    async def put_access_rule(self, rule: AccessRule) -> None: ...


class AccessRules:
    def __init__(
        self,
        store: RuleStore | None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._store = store
        self._clock = clock
        self._rules: dict[str, AccessRule] = {}

    async def refresh(self) -> None:
        """Reloads the rules from the store (keeps the last ones if it is down)."""
        if self._store is None:
            return
        try:
            rules = await self._store.access_rules()
        except StoreUnavailable as error:
            log.warning("access rules not refreshed: %s", error)
            return
        self._rules = {rule.key: rule for rule in rules}

    def check(self, user_id: str, issued_at: float) -> None:
        """Raises 401 when the user's rule refuses a token issued at `issued_at`."""
        if not self._rules:
            return
        rule = self._rules.get(access_key(user_id))
        if rule is None:
            return
        if rule.disabled:
            raise unauthorized("account_disabled", "This account is disabled.")
        if rule.revoked_before is not None and issued_at <= rule.revoked_before.timestamp():
            raise unauthorized("token_revoked", "This token was revoked; log in again.")

    def disabled(self, user_id: str) -> bool:
        rule = self._rules.get(access_key(user_id))
        return rule is not None and rule.disabled

    def rule_for(self, user_id: str) -> AccessRule | None:
        return self._rules.get(access_key(user_id))

    async def revoke(self, user_id: str) -> datetime:
        """Refuses the user's tokens issued up to now; the time it took effect."""
        now = self._clock()
        await self._put(user_id, revoked_before=now)
        return now

    async def set_disabled(self, user_id: str, disabled: bool) -> None:
        await self._put(user_id, disabled=disabled)

    async def _put(self, user_id: str, **changes: object) -> None:
        if self._store is None:
            raise StoreUnavailable("this store keeps no access rules")
        key = access_key(user_id)
        rule = replace(self._rules.get(key) or AccessRule(key), **changes)  # type: ignore[arg-type]
        await self._store.put_access_rule(rule)
        self._rules[key] = rule
