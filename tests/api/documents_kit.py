"""Helpers for the document tests: tiny files of each type, upload/chat calls, a movable clock."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import httpx
from docx import Document

from pipelines.runner import ChatPipeline
from service.chat import ChatService
from service.container import Container
from tests.unit.test_loaders import pdf_bytes

__all__ = ["MovableClock", "chat_sources", "docx_bytes", "file_of", "pdf_bytes", "upload"]

TEXT = "The zebrafish aquarium permit requires a quarterly turbidity report to the warden office."


def docx_bytes(paragraphs: list[str]) -> bytes:
    document = Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def file_of(kind: str, text: str = TEXT) -> tuple[str, bytes]:
    """A tiny valid file of `kind` (txt, md, docx, pdf) holding `text`."""
    if kind == "txt":
        return "notes.txt", text.encode()
    if kind == "md":
        return "notes.md", f"# Permit notes\n\n{text}\n".encode()
    if kind == "docx":
        return "notes.docx", docx_bytes(["Permit notes", text])
    if kind == "pdf":
        return "notes.pdf", pdf_bytes([[text]])
    raise ValueError(kind)


async def upload(
    client: httpx.AsyncClient, headers: dict[str, str], name: str, data: bytes
) -> httpx.Response:
    files = {"file": (name, data, "application/octet-stream")}
    return await client.post("/v1/documents", files=files, headers=headers)


async def chat_sources(
    client: httpx.AsyncClient, headers: dict[str, str], message: str
) -> list[dict[str, Any]]:
    response = await client.post("/v1/chat", json={"message": message}, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["route"] == "question"
    sources: list[dict[str, Any]] = response.json()["sources"]
    return sources


@dataclass
class MovableClock:
    """The container's clock plus an offset; `install` makes the pipeline and uploads use it."""

    base: Any
    offset: timedelta = timedelta(0)

    def __call__(self) -> datetime:
        now: datetime = self.base()
        return now + self.offset

    @classmethod
    def install(cls, container: Container) -> MovableClock:
        clock = cls(container.deps.clock)
        deps = container.deps = replace(container.deps, clock=clock)
        container.chat = ChatService(
            ChatPipeline(deps),
            container.store,
            container.chat.metrics,
            max_message_chars=container.settings.max_message_chars,
            clock=clock,
        )
        container.documents = container.documents.with_clock(clock)
        return clock
