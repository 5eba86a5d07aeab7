"""GET / serves the page and its files under a strict policy; nothing else is served; the page's
own files stay small and never write untrusted text as HTML."""

from __future__ import annotations

import re

import pytest

from service.http.web import STATIC_DIR, static_files
from tests.api.conftest import Kit

PAGE_BUDGET_BYTES = 60 * 1024
# Ways JavaScript turns a string into markup or code.
HTML_SINKS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|"
    r"createContextualFragment|DOMParser|srcdoc"
)


def _policy(header: str) -> dict[str, str]:
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {name: value for name, value in parts}


@pytest.mark.parametrize(
    ("path", "media_type"),
    [
        ("/", "text/html"),
        ("/web/app.js", "text/javascript"),
        ("/web/api.js", "text/javascript"),
        ("/web/style.css", "text/css"),
        ("/web/icon.svg", "image/svg+xml"),
    ],
)
async def test_the_page_and_its_files_carry_the_security_headers(
    kit: Kit, path: str, media_type: str
) -> None:
    response = await kit.client.get(path)  # no token: the page itself is public
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media_type)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    policy = _policy(response.headers["content-security-policy"])
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self'"  # no inline script, no other host
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response.headers["content-security-policy"]


async def test_the_page_loads_only_its_own_files(kit: Kit) -> None:
    html = (await kit.client.get("/")).text
    assert "<script>" not in html  # every script is a file
    assert re.findall(r"\son[a-z]+\s*=", html) == []  # no inline event handler
    for url in re.findall(r'(?:src|href)="([^"#]+)"', html):
        assert url.startswith("/web/"), url
        assert (await kit.client.get(url)).status_code == 200


@pytest.mark.parametrize("path", ["/web/missing.js", "/web/..%2Fapp.py", "/web/index.py"])
async def test_only_the_shipped_files_are_served(kit: Kit, path: str) -> None:
    response = await kit.client.get(path)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_the_pages_own_files_stay_under_60_kb() -> None:
    sizes = {path.name: path.stat().st_size for path in STATIC_DIR.iterdir()}
    assert set(static_files()) == set(sizes)  # every file there is served, nothing else
    assert sum(sizes.values()) < PAGE_BUDGET_BYTES, sizes


def test_no_script_writes_text_as_html() -> None:
    for path in STATIC_DIR.glob("*.js"):
        assert HTML_SINKS.findall(path.read_text()) == [], path.name
