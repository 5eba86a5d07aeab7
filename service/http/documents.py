"""Documents: upload, list and delete one's own temporary documents (SPEC sections 2 and 3).

The upload route caps its own body, so every oversized upload gets 413 `upload_too_large`:
a declared Content-Length over the cap is refused before authentication or reading, and a
streamed body is counted as it arrives (the form parser spools the file to a temporary file,
never more than the cap plus a small multipart envelope). The file itself may be at most
WARDEN_MAX_UPLOAD_BYTES.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import Message

from pipelines.ports import DocumentRecord
from service.documents.limits import DocumentLimits
from service.errors import ServiceError, responses
from service.http.deps import CurrentUser, DocumentsDep, RateLimitedUser

router = APIRouter(prefix="/v1/documents", tags=["documents"])
_MULTIPART_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "additionalProperties": False,
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            }
        },
    }
}


# OpenAPI link: the `id` of an upload's answer is what DELETE /v1/documents/{doc_id} takes.
_DELETE_LINK = {
    "operationId": "delete_document_v1_documents__doc_id__delete",
    "parameters": {"doc_id": "$response.body#/id"},
}


class DocumentOut(BaseModel):
    id: str
    name: str
    chunks: int
    created_at: datetime
    expires_at: datetime
    held_back: int = 0  # chunks not indexed: they carry instructions for the model
    held_back_reasons: list[str] = []  # the rules that held them back, most frequent first

    @classmethod
    def of(cls, record: DocumentRecord) -> DocumentOut:
        return cls(
            id=record.id,
            name=record.name,
            chunks=record.chunks,
            created_at=record.created_at,
            expires_at=record.expires_at,
            held_back=record.held_back,
            held_back_reasons=list(record.held_back_reasons),
        )


def refuse_declared_oversize(request: Request, documents: DocumentsDep) -> None:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > documents.limits.max_request_bytes:
        raise documents.limits.too_large()


async def read_upload(request: Request, limits: DocumentLimits) -> tuple[bytes, str | None]:
    """The `file` part's bytes (at most one byte over the cap: DocumentService refuses it)
    and client-given name, read under the request cap."""
    cap, received = limits.max_request_bytes, 0

    async def capped_receive() -> Message:
        nonlocal received
        message = await request.receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > cap:
                raise limits.too_large()
        return message

    try:
        form = await Request(request.scope, capped_receive).form(
            max_files=1, max_fields=4, max_part_size=1024
        )
    except HTTPException as error:  # malformed multipart (Starlette's 400)
        raise ServiceError("malformed_upload", str(error.detail), 400) from None
    except ClientDisconnect:
        raise ServiceError("client_disconnected", "The upload was interrupted.", 400) from None
    try:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise ServiceError(
                "missing_file", "Send the document as multipart/form-data field 'file'.", 422
            )
        return await upload.read(limits.max_upload_bytes + 1), upload.filename
    finally:
        await form.close()


@router.post(
    "",
    status_code=201,
    dependencies=[Depends(refuse_declared_oversize)],  # runs first: before auth, before reading
    openapi_extra=_MULTIPART_BODY,
    responses={
        201: {"links": {"DeleteDocument": _DELETE_LINK}},
        **responses(400, 401, 409, 413, 415, 422, 429, 503),
    },
)
async def upload_document(
    request: Request, user: RateLimitedUser, documents: DocumentsDep
) -> DocumentOut:
    """PDF, DOCX, TXT or Markdown; searchable only by the uploader until it expires
    (WARDEN_UPLOAD_TTL_HOURS). 409 `too_many_documents` past the per-user limit."""
    data, raw_name = await read_upload(request, documents.limits)
    record = await documents.upload(data, raw_name, user_id=user.user_id)
    return DocumentOut.of(record)


@router.get("", responses=responses(401, 503))
async def list_documents(user: CurrentUser, documents: DocumentsDep) -> list[DocumentOut]:
    """The caller's unexpired documents, oldest first."""
    return [DocumentOut.of(r) for r in await documents.live_documents(user.user_id)]


@router.delete("/{doc_id}", status_code=204, responses=responses(401, 404, 503))
async def delete_document(doc_id: str, user: CurrentUser, documents: DocumentsDep) -> Response:
    """Removes the caller's document (vectors and record); 404 for any other id."""
    await documents.delete(doc_id, user_id=user.user_id)
    return Response(status_code=204)
