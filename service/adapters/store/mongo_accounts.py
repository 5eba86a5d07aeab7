"""AccountDataMixin: MongoStore's part of the AccountData port (a user's own data, access
rules, history rewrites for data-key rotation). Access rules live in `access_rules`, keyed by
`access_key(user_id)`, a hash: an erased user's rule keeps no id of theirs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pipelines.ports import AccessRule, ChatRecord, UserRecord
from service.adapters.store import mongo_documents as docs
from service.adapters.store.mongo_errors import driver_errors
from service.adapters.store.mongo_recent import RecentHeads

ACCESS_RULES = "access_rules"


class AccountDataMixin:
    _db: Any
    _heads: RecentHeads | None
    _on_compact: Callable[[], Awaitable[None]] | None

    async def user_by_id(self, user_id: str) -> UserRecord | None:
        with driver_errors():
            found = await self._db.users.find_one({"_id": user_id})
        return None if found is None else docs.user_record(found)

    async def list_users(self) -> list[UserRecord]:
        with driver_errors():
            found = await self._db.users.find({}).sort([("created_at", 1)]).to_list(None)
        return [docs.user_record(d) for d in found]

    async def delete_user(self, user_id: str) -> bool:
        with driver_errors():
            result = await self._db.users.delete_one({"_id": user_id})
        return bool(result.deleted_count == 1)

    async def access_rules(self) -> list[AccessRule]:
        with driver_errors():
            found = await self._db[ACCESS_RULES].find({}).to_list(None)
        return [_rule(d) for d in found]

    async def put_access_rule(self, rule: AccessRule) -> None:
        doc = {"revoked_before": rule.revoked_before, "disabled": rule.disabled}
        with driver_errors():
            await self._db[ACCESS_RULES].replace_one({"_id": rule.key}, doc, upsert=True)

    async def erase_history(self, user_id: str) -> int:
        with driver_errors():
            result = await self._db.chat_history.delete_many({"user_id": user_id})
            if self._heads is not None:
                await self._heads.forget(user_id)
        return int(result.deleted_count)

    async def erase_documents(self, user_id: str) -> list[str]:
        with driver_errors():
            found = await self._db.documents.find({"user_id": user_id}).to_list(None)
            ids = [str(d["_id"]) for d in found]
            if ids:
                await self._db.documents.delete_many({"user_id": user_id})
        return ids

    async def history_users(self) -> list[str]:
        with driver_errors():
            return [str(u) for u in await self._db.chat_history.distinct("user_id")]

    async def history_records(self, user_id: str) -> list[ChatRecord]:
        with driver_errors():
            cursor = self._db.chat_history.find({"user_id": user_id}).sort([("sort_key", 1)])
            found = await cursor.to_list(None)
        return [docs.chat_record(d) for d in found]

    async def rewrite_history(self, user_id: str, records: Sequence[ChatRecord]) -> None:
        with driver_errors():
            for record in records:
                doc = docs.chat_doc(record)
                await self._db.chat_history.replace_one({"_id": doc["_id"]}, doc)
            if self._heads is not None:
                await self._heads.rebuild(user_id)

    async def compact(self) -> None:
        if self._on_compact is not None:
            with driver_errors():
                await self._on_compact()


def _rule(doc: dict[str, Any]) -> AccessRule:
    revoked = doc.get("revoked_before")
    return AccessRule(
        key=doc["_id"],
        revoked_before=docs.as_utc(revoked) if revoked else None,
        disabled=bool(doc.get("disabled", False)),
    )
