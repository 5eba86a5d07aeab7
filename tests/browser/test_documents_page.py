""" "My documents" in Chromium: upload by picker and by drag and drop, answer from an upload,
delete it, the server's refusals in words, the expiry shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, Page, Served, ask, new_page, screenshot, sign_up

pytestmark = pytest.mark.slow
NOTE = (
    "# Kestrel Valley tenancy note\n\n"
    "The Kestrel Valley housing tribunal meets every second Thursday in the old library "
    "building on Marigold Street. Tenants bring their rent receipts and the tribunal clerk "
    "records each complaint in the tribunal register.\n"
)
MARKUP_NAME = "<img src=x onerror=alert(2)>.txt"
QUESTION = "When does the Kestrel Valley housing tribunal meet?"


def _open_documents(page: Any) -> None:
    page.get_by_role("button", name="My documents").click()
    page.get_by_role("heading", name="My documents").wait_for()


def _drop(page: Any, name: str, text: str) -> None:
    """A real drop event on the drop zone, carrying one file."""
    page.evaluate(
        """([name, text]) => {
            const data = new DataTransfer();
            data.items.add(new File([text], name, { type: "text/plain" }));
            const zone = document.getElementById("drop");
            for (const type of ["dragenter", "dragover", "drop"]) {
                zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true,
                                                         cancelable: true }));
            }
        }""",
        [name, text],
    )


def _sources(answer: Any) -> list[str]:
    return [s.strip() for s in answer.locator("details.citation summary").all_inner_texts()]


def test_upload_answer_from_it_delete_it_and_it_is_gone(
    web: Page, served: Served, tmp_path: Path
) -> None:
    page = web.page
    sign_up(page)
    note = tmp_path / "kestrel-note.md"
    note.write_text(NOTE)
    _open_documents(page)
    page.get_by_label("Choose files").set_input_files(str(note))
    page.get_by_text("ready:").wait_for(timeout=60_000)
    assert page.locator("#upload-progress").evaluate("p => p.value") == 100
    item = page.locator(".doc").filter(has_text="kestrel-note.md")
    item.wait_for()
    assert "expires in 24 h" in item.inner_text()
    screenshot(page, "documents-desktop")

    page.get_by_role("button", name="Chat").click()
    answer = ask(page, QUESTION)
    assert "kestrel-note.md" in _sources(answer)
    assert "second Thursday" in answer.locator(".text").inner_text()

    _open_documents(page)
    page.get_by_role("button", name="Delete kestrel-note.md").click()
    item.wait_for(state="detached")
    assert page.locator("#docs-empty").is_visible()

    page.get_by_role("button", name="Chat").click()
    again = ask(page, QUESTION)
    assert "kestrel-note.md" not in _sources(again)
    assert "second Thursday" not in again.locator(".text").inner_text()


def test_drag_and_drop_and_the_servers_refusals_in_words(web: Page) -> None:
    page = web.page
    sign_up(page)
    _open_documents(page)
    _drop(page, MARKUP_NAME, "Dropped notes about a consumer complaint and a refund.")
    page.locator(".doc").first.wait_for(timeout=60_000)
    shown = page.locator(".doc-name").inner_text()
    assert "onerror" in shown and page.locator(".docs img").count() == 0  # a name is text

    error = page.locator("#docs-error")
    _drop(page, "photo.png", "not really a picture")
    error.wait_for()
    assert "This type of file is not supported" in error.inner_text()

    _drop(page, "broken.pdf", "%PDF-1.7 this is not a PDF body")
    page.wait_for_function(
        "() => document.getElementById('docs-error').textContent.includes('damaged')"
    )

    _drop(page, "huge.txt", "words " * 60_000)  # 360 kB, over the 200 kB cap of this server
    page.wait_for_function(
        "() => document.getElementById('docs-error').textContent.includes('too large')"
    )
    assert page.locator(".doc").count() == 1


def test_phone_width_documents_view(browser: Any, served: Served) -> None:
    opened = new_page(browser, served, PHONE)
    page = opened.page
    try:
        sign_up(page)
        _open_documents(page)
        _drop(page, "my-rent-agreement-notes.txt", "Notes on the rent agreement and deposit.")
        page.locator(".doc").first.wait_for(timeout=60_000)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "documents-phone")
    finally:
        page.context.close()
    assert opened.watch.other_hosts(served.url) == []
