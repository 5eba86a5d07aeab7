"""Browser kit: `warden serve` (real app, embedded stores, sample knowledge base documents)
on a loopback port, the slow fake model beside it, and Debian's Chromium driven by Playwright.

Chromium is never downloaded: it is launched from CHROMIUM (`make test` installs Debian's
package when it can). Without it these tests skip, except under CI=true, where they fail.
Every page records its requests and console; a request to any other host, or a
Content-Security-Policy violation, fails the test that caused it. Screenshots go to
`test-artifacts/browser/` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.browser.fake_model import FakeModel, fake_model
from tests.e2e.conftest import warden
from tests.integration.llm_server import free_port

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = ROOT / "test-artifacts" / "browser"
JWT_SECRET = "browser-tests-" + "s" * 40
PASSWORD = "correct horse battery"
# Part of the sample knowledge base (the whole takes twice as long to ingest): what the tests
# ask about, in three of its formats.
SAMPLE_DOCUMENTS = (
    "bail-basics.txt",
    "lok-adalat.md",
    "consumer-complaints.md",
    "legal-aid-glossary.pdf",
)
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run; `make test` installs it)")
    pytest.skip(reason)


@dataclass
class Served:
    url: str
    model: FakeModel
    log: Path


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Checked first, so a machine without it skips (or fails) before the server starts."""
    if not CHROMIUM.is_file():
        _missing(f"{CHROMIUM} is missing: install Debian's chromium (`make browser-deps`)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("playwright is not installed (dev dependency)")
    return CHROMIUM


@pytest.fixture(scope="session")
def served(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Part of the sample knowledge base ingested, then `warden serve` with the fake model."""
    base = tmp_path_factory.mktemp("browser")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARDEN_", "LANGFUSE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        WARDEN_DATA_DIR=str(base / "data"),
        WARDEN_JWT_SECRET=JWT_SECRET,
        WARDEN_AUTH_REQUESTS_PER_IP_PER_MINUTE="1000",
        WARDEN_LOGIN_ATTEMPTS_PER_MINUTE="1000",
        WARDEN_RATE_LIMIT_PER_MINUTE="0",
        WARDEN_MAX_UPLOAD_BYTES="200000",
    )
    kb = base / "kb"
    kb.mkdir()
    for name in SAMPLE_DOCUMENTS:
        shutil.copy(ROOT / "sample_kb" / name, kb / name)
    ingest = warden(base / "data", "ingest", str(kb), "--json")  # in-process
    assert ingest.code == 0, ingest.err[-2000:]
    command = [sys.executable, "-m", "service.main"]
    with fake_model() as model:
        env.update(WARDEN_LLM_BASE_URL=model.url, WARDEN_LLM_MODEL="fake")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        log = base / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [*command, "serve", "--port", str(port)],
                env=env, cwd=base, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                _wait_until_up(url, server, log)
                yield Served(url=url, model=model, log=log)
            finally:
                server.terminate()
                server.wait(timeout=30)


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert server.poll() is None, "warden serve exited early:\n" + log.read_text()[-3000:]
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError("warden serve did not come up")


@pytest.fixture(scope="module")
def browser(served: Served) -> Iterator[Any]:
    """Started after `served` and closed with each module: Playwright's sync API keeps an
    event loop marked as running while it is open, which the in-process ingest and the
    asyncio tests of other folders cannot share."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watch:
    """What one page asked for and complained about."""

    requests: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def other_hosts(self, origin: str) -> list[str]:
        own = urlsplit(origin).netloc
        return [url for url in self.requests if urlsplit(url).netloc != own]

    def policy_violations(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line]


@dataclass
class Page:
    page: Any  # playwright.sync_api.Page
    watch: Watch
    url: str


def new_page(browser: Any, served: Served, viewport: dict[str, int] = DESKTOP) -> Page:
    context = browser.new_context(viewport=viewport, base_url=served.url)
    page = context.new_page()
    watch = Watch()
    context.on("request", lambda request: watch.requests.append(request.url))
    page.on("console", lambda message: watch.console.append(f"{message.type}: {message.text}"))
    page.on("dialog", lambda dialog: (watch.dialogs.append(dialog.message), dialog.dismiss()))
    return Page(page=page, watch=watch, url=served.url)


@pytest.fixture
def web(browser: Any, served: Served) -> Iterator[Page]:
    """A fresh browser context; afterwards: no other host was asked, no policy was violated,
    no dialog opened."""
    opened = new_page(browser, served)
    yield opened
    opened.page.context.close()
    assert opened.watch.other_hosts(served.url) == []
    assert opened.watch.policy_violations() == []
    assert opened.watch.dialogs == []


def sign_up(page: Any, name: str = "Asha Rao") -> str:
    """Creates an account through the page; returns its e-mail."""
    email = f"user-{uuid.uuid4().hex[:10]}@example.org"
    page.goto("/")
    page.get_by_role("button", name="New here? Create an account").click()
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create account").click()
    page.get_by_label("Your message").wait_for()
    return email


def sign_in(page: Any, email: str) -> None:
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()


def ask(page: Any, message: str, *, timeout_ms: float = 30_000) -> Any:
    """Sends a message with the keyboard; returns the finished answer's element."""
    answers = page.locator(".msg.assistant")
    before = answers.count()
    box = page.get_by_label("Your message")
    box.fill(message)
    box.press("Enter")
    answer = answers.nth(before)
    answer.wait_for()
    page.wait_for_function(
        "n => { const a = document.querySelectorAll('.msg.assistant')[n];"
        " return a && !a.hasAttribute('aria-busy'); }",
        arg=before,
        timeout=timeout_ms,
    )
    return answer


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = page.viewport_size
    shown = "document.querySelector('main > section:not([hidden])')"
    used = page.evaluate(f"() => {shown}.getBoundingClientRect().bottom")
    height = min(size["height"], int(used) + 16)  # the viewport, without the empty part
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": size["width"], "height": height})
    return path
