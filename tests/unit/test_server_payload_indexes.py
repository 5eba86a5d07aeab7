"""The Qdrant server collection's payload indexes: every filtered field, and the upload
owner's field as the tenant index (`is_tenant`), also on a collection that predates it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from qdrant_client import models

from service.adapters.vector import filters as vf
from service.adapters.vector.qdrant_server import ensure_payload_indexes


class RecordingClient:
    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.created: dict[str, Any] = {}

    async def get_collection(self, name: str) -> Any:
        return SimpleNamespace(payload_schema=self.schema)

    async def create_payload_index(
        self, name: str, field: str, *, field_schema: Any, wait: bool
    ) -> None:
        self.created[field] = field_schema


def tenant_flag(schema: Any) -> bool:
    return bool(getattr(schema, "is_tenant", False))


async def test_a_new_collection_gets_every_index_and_the_tenant_one() -> None:
    client = RecordingClient({})
    await ensure_payload_indexes(client, "warden")  # type: ignore[arg-type]
    assert set(client.created) == set(vf.PAYLOAD_INDEXES)
    assert [f for f, s in client.created.items() if tenant_flag(s)] == ["uploaded_by"]
    assert isinstance(client.created["expires_at"], models.IntegerIndexParams)


async def test_an_older_plain_owner_index_becomes_the_tenant_index() -> None:
    plain = SimpleNamespace(params=models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD))
    tenant = SimpleNamespace(
        params=models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
    )
    older = RecordingClient({field: plain for field in vf.PAYLOAD_INDEXES})
    await ensure_payload_indexes(older, "warden")  # type: ignore[arg-type]
    assert list(older.created) == ["uploaded_by"]
    assert tenant_flag(older.created["uploaded_by"])
    current = RecordingClient({**older.schema, "uploaded_by": tenant})
    await ensure_payload_indexes(current, "warden")  # type: ignore[arg-type]
    assert current.created == {}
