"""The `Idempotency-Key` request header of POST /v1/chat and /v1/chat/stream."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header

from service.http.deps import ContainerDep
from service.idempotency_keys import KEY_MAX, KEY_MIN, KEY_PATTERN, check_key
from service.idempotent_chat import IdempotentChats

HEADER = "Idempotency-Key"


def _key_schema(schema: dict[str, Any]) -> None:
    """A string of the key's shape (absent is allowed by `required: false`, not by null)."""
    schema.pop("anyOf", None)
    schema.update(type="string", pattern=KEY_PATTERN, minLength=KEY_MIN, maxLength=KEY_MAX)


async def idempotency_key(
    key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            description="Send the same key again to retry a chat safely: within 24 hours the "
            "same user and message get the stored answer, and nothing is stored twice. "
            "422 `invalid_idempotency_key` for a malformed key, 409 `idempotency_key_reused` "
            "for another message, 409 `idempotency_key_in_use` while the first still runs.",
            json_schema_extra=_key_schema,
        ),
    ] = None,
) -> str | None:
    return None if key is None else check_key(key)


async def idempotent_chats(container: ContainerDep) -> IdempotentChats:
    return container.idempotent


IdempotencyKey = Annotated[str | None, Depends(idempotency_key)]
IdempotentDep = Annotated[IdempotentChats, Depends(idempotent_chats)]
