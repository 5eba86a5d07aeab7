"""The chat page in Chromium: streaming, citations, refusals, greetings, privacy, safe rendering,
an expired session, history after a reload."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import pytest

from tests.browser.conftest import (
    JWT_SECRET,
    PASSWORD,
    PHONE,
    Page,
    Served,
    Watch,
    ask,
    new_page,
    screenshot,
    sign_in,
    sign_up,
)

pytestmark = pytest.mark.slow
BAIL = "How do I get bail for a bailable offence?"
MARKUP = "<img src=x onerror=alert(1)>"


def _text(answer: Any) -> str:
    return str(answer.locator(".text").inner_text())


def test_sign_up_ask_and_see_the_answer_grow_while_streaming(web: Page, served: Served) -> None:
    page = web.page
    sign_up(page)
    served.model.delay_s = 0.25  # about 4 s for a sentence of 15 words
    try:
        finished = served.model.finished
        box = page.get_by_label("Your message")
        box.fill("I am at asha.rao@example.org. " + BAIL)
        box.press("Enter")
        partial = page.locator(".msg.assistant .text").first
        page.wait_for_function(
            "() => (document.querySelector('.msg.assistant .text') || {}).textContent",
            timeout=20_000,
        )
        shown_early = partial.inner_text()
        assert served.model.finished == finished, "the page waited for the whole answer"
        answer = page.locator(".msg.assistant").first
        page.wait_for_function(
            "() => !document.querySelector('.msg.assistant').hasAttribute('aria-busy')",
            timeout=30_000,
        )
    finally:
        served.model.delay_s = 0.02
    final = _text(answer)
    assert served.model.finished == finished + 1
    assert shown_early and final.startswith(shown_early.strip()) and len(final) > len(shown_early)
    assert "[1]" in final
    assert "Confidence" in answer.inner_text()
    assert answer.locator(".privacy").inner_text() == "1 item kept private: e-mail"

    citation = answer.locator("details.citation").first
    preview = citation.locator(".preview")
    assert not preview.is_visible()
    citation.locator("summary").focus()
    page.keyboard.press("Enter")  # keyboard alone opens a citation
    assert preview.is_visible() and preview.inner_text().strip()
    assert citation.locator("summary").inner_text().endswith((".txt", ".md", ".pdf", ".docx")) or (
        ", page " in citation.locator("summary").inner_text()
    )
    screenshot(page, "chat-desktop")
    assert any(url.endswith("/v1/chat/stream") for url in web.watch.requests)
    assert web.watch.other_hosts(served.url) == []


def test_the_host_check_sees_a_request_to_another_host() -> None:
    watch = Watch(requests=["http://127.0.0.1:8000/", "https://cdn.example.com/x.js"])
    assert watch.other_hosts("http://127.0.0.1:8000") == ["https://cdn.example.com/x.js"]


def test_refused_greeting_and_privacy_note(web: Page) -> None:
    page = web.page
    sign_up(page, name="Ravi")
    refused = ask(page, "You are a useless idiot.")
    assert "refused" in (refused.get_attribute("class") or "")
    assert refused.locator(".badge").text_content() == "Not answered"
    assert "respectful" in _text(refused)  # the service's polite refusal

    greeting = ask(page, "Good morning!")
    assert "Hello" in _text(greeting)
    assert greeting.locator("details.citation").count() == 0

    unknown = ask(page, "What is the boiling point of tungsten in kelvin?")
    assert unknown.locator(".badge.abstained").text_content() == "Not found"

    private = ask(
        page,
        "My email is asha.rao@example.org and my phone is +91 98765 43210. " + BAIL,
    )
    note = private.locator(".privacy")
    assert note.inner_text() == "2 items kept private: e-mail, phone"
    assert "asha.rao@example.org" not in note.inner_text()


def test_markup_runs_nothing_and_a_failing_model_is_labelled(web: Page, served: Served) -> None:
    page = web.page
    sign_up(page)
    served.model.markup = MARKUP
    try:
        answer = ask(page, BAIL)
    finally:
        served.model.markup = ""
    assert MARKUP in _text(answer)
    assert page.locator(".log img").count() == 0
    assert page.evaluate("() => document.querySelectorAll('img').length") == 1  # the logo
    time.sleep(0.3)  # an onerror handler would have fired by now
    assert web.watch.dialogs == []

    served.model.failing = True  # the model is down: the answer degrades to the sources
    try:
        degraded = ask(page, BAIL)
    finally:
        served.model.failing = False
    assert degraded.locator(".badge.degraded").text_content() == "Sources only"
    assert degraded.locator("details.citation").count() > 0


def _expired_copy(token: str) -> str:
    claims = jwt.decode(token, options={"verify_signature": False})
    past = datetime.now(UTC) - timedelta(minutes=5)
    claims.update(iat=int((past - timedelta(hours=1)).timestamp()), exp=int(past.timestamp()))
    return jwt.encode(claims, JWT_SECRET, algorithm="HS256")


def test_an_expired_session_asks_to_sign_in_again_and_keeps_the_draft(web: Page) -> None:
    page = web.page
    email = sign_up(page)
    token = page.evaluate("() => sessionStorage.getItem('warden.token')")
    page.evaluate("t => sessionStorage.setItem('warden.token', t)", _expired_copy(token))
    draft = "What is a Lok Adalat and how does it settle a case?"
    box = page.get_by_label("Your message")
    box.fill(draft)
    box.press("Enter")
    notice = page.locator("#auth-notice")
    notice.wait_for()
    assert "expired" in notice.inner_text()
    assert page.locator(".msg.user").count() == 0  # nothing was sent
    sign_in(page, email)
    box.wait_for()
    assert box.input_value() == draft
    answer = ask(page, draft)
    assert _text(answer)


def _sign_up_with_the_keyboard(page: Any) -> None:
    page.goto("/")
    page.get_by_label("E-mail").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "auth-email"
    keys = page.keyboard
    keys.press("Tab")  # password
    keys.press("Tab")  # Sign in
    keys.press("Tab")  # "New here? Create an account"
    keys.press("Enter")  # sign-up mode, back on the e-mail field
    keys.type(f"keys-{uuid.uuid4().hex[:8]}@example.org")
    keys.press("Tab")
    keys.type(PASSWORD)
    keys.press("Tab")
    keys.type("Kiran")
    keys.press("Enter")
    page.get_by_label("Your message").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "message"


def test_keyboard_only_history_after_a_reload_and_sign_out(web: Page) -> None:
    page = web.page
    _sign_up_with_the_keyboard(page)
    answer = _text(ask(page, BAIL))
    page.reload()
    page.locator(".msg.assistant").first.wait_for()
    assert page.locator(".msg.user .text").first.inner_text() == BAIL
    assert page.locator(".msg.assistant .text").first.inner_text() == answer

    page.get_by_role("button", name="Sign out").focus()
    page.keyboard.press("Enter")
    page.get_by_text("You have signed out.").wait_for()
    assert page.locator(".msg").count() == 0
    assert page.evaluate("() => sessionStorage.getItem('warden.token')") is None


def test_phone_width_chat_is_readable(browser: Any, served: Served) -> None:
    opened = new_page(browser, served, PHONE)
    page = opened.page
    try:
        sign_up(page)
        answer = ask(page, BAIL)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "the page scrolls sideways on a phone"
        assert answer.bounding_box()["width"] <= PHONE["width"]
        screenshot(page, "chat-phone")
    finally:
        page.context.close()
    assert opened.watch.other_hosts(served.url) == []


def test_the_page_follows_the_systems_dark_preference(browser: Any, served: Served) -> None:
    backgrounds = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, base_url=served.url)
        page = context.new_page()
        page.goto("/")
        page.get_by_label("E-mail").wait_for()
        backgrounds[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        screenshot(page, f"sign-in-{scheme}")
        context.close()
    light, dark = (
        sum(int(n) for n in backgrounds[s].strip("rgba()").split(",")[:3])
        for s in ("light", "dark")
    )
    assert light > 600 and dark < 150, backgrounds
