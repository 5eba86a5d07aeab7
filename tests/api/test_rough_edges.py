"""Edges a new user or a fuzzer finds first: trailing slashes, undecodable bodies, the OpenAPI
document against what the routes do, /docs without a network, `warden --version`."""

from __future__ import annotations

import re
from typing import Any

import pytest

from service.main import main
from tests.api.conftest import Kit, KitFactory

SLASHED = [
    ("DELETE", "/v1/documents/"),
    ("GET", "/v1/documents/"),
    ("POST", "/v1/documents/"),
    ("POST", "/v1/chat/"),
    ("POST", "/v1/chat/stream/"),
    ("GET", "/v1/chat/history/"),
    ("POST", "/v1/auth/token/"),
    ("POST", "/v1/auth/register/"),
    ("GET", "/healthz/"),
    ("GET", "/readyz/"),
    ("GET", "/metrics/"),
]


@pytest.mark.parametrize(("method", "path"), SLASHED)
async def test_a_trailing_slash_is_a_json_404_not_a_redirect(
    kit: Kit, method: str, path: str
) -> None:
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.request(method, path, headers=headers)

    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "detail": "Not Found"}


async def test_delete_without_an_id_is_a_json_405(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.delete("/v1/documents", headers=headers)

    assert response.status_code == 405
    assert response.json()["error"] == "method_not_allowed"


@pytest.mark.parametrize(
    "body",
    [b'{"message": "caf\xe9"}', b"\xff\xfe\x00m", b"[" * 100_000 + b"]" * 100_000],
    ids=["latin-1", "bad-bom", "nested-too-deep"],
)
async def test_an_undecodable_json_body_is_422_malformed_json(
    make_kit: KitFactory, body: bytes
) -> None:
    kit = await make_kit(max_body_bytes=512 * 1024)
    headers = await kit.headers_for("asha@example.org")
    headers["Content-Type"] = "application/json"
    for path in ("/v1/chat", "/v1/chat/stream", "/v1/auth/register"):
        response = await kit.client.post(path, content=body, headers=headers)
        assert response.status_code == 422, (path, response.text)
        assert response.json()["error"] == "malformed_json"
    assert kit.detector.calls == 0


async def openapi(kit: Kit) -> dict[str, Any]:
    response = await kit.client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


async def test_metrics_is_open_in_the_schema_unless_a_token_is_set(make_kit: KitFactory) -> None:
    open_kit = await make_kit()
    operation = (await openapi(open_kit))["paths"]["/metrics"]["get"]
    assert "security" not in operation and "401" not in operation["responses"]
    assert (await open_kit.client.get("/metrics")).status_code == 200

    guarded = await make_kit(metrics_token="scrape-" + "t" * 40)
    operation = (await openapi(guarded))["paths"]["/metrics"]["get"]
    assert operation["security"] == [{"MetricsToken": []}]
    assert "401" in operation["responses"]
    assert (await guarded.client.get("/metrics")).status_code == 401


async def test_the_chat_schema_refuses_what_the_service_refuses(kit: Kit) -> None:
    schema = (await openapi(kit))["components"]["schemas"]["ChatRequest"]
    message = schema["properties"]["message"]
    pattern = re.compile(message["pattern"])
    headers = await kit.headers_for("asha@example.org")
    for text in ["", " ", "\t\n", "\u3000", "\x1c", "hello", " hi ", "\ufeff"]:
        allowed = len(text) >= message["minLength"] and pattern.search(text) is not None
        response = await kit.client.post("/v1/chat", json={"message": text}, headers=headers)
        assert (response.status_code == 200) == allowed, (repr(text), response.text)
        if not allowed:
            assert response.json()["error"] == "empty_message"
    assert schema["required"] == ["message"] and schema["additionalProperties"] is False


async def test_the_upload_answer_is_what_the_readme_says(kit: Kit) -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `POST /v1/documents`"))
    status, fields = re.search(r"(\d{3}) `\{([^}]*)\}`", row).groups()  # type: ignore[union-attr]
    operation = (await openapi(kit))["paths"]["/v1/documents"]["post"]
    schema = (await openapi(kit))["components"]["schemas"]["DocumentOut"]

    assert status in operation["responses"] and status == "201"
    assert [f.strip() for f in fields.split(",")] == list(schema["properties"])

    headers = await kit.headers_for("asha@example.org")
    files = {"file": ("note.txt", b"Tenants may ask for the deposit back in writing.")}
    response = await kit.client.post("/v1/documents", files=files, headers=headers)
    assert response.status_code == 201
    assert list(response.json()) == list(schema["properties"])


async def test_docs_load_only_from_the_same_origin(kit: Kit) -> None:
    page = await kit.client.get("/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text

    urls = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and not re.search(r"(?i)https?:|//[a-z0-9]", page.text.replace("\\/", "/"))
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        asset = await kit.client.get(url)
        assert asset.status_code == 200, url
    assert (await kit.client.get("/docs/assets/index.html")).status_code == 404
    assert (await kit.client.get("/docs/assets/..%2Fswagger-ui.js")).status_code == 404
    assert (await kit.client.get("/redoc")).status_code == 404


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert re.fullmatch(r"warden \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


async def test_a_405_allows_every_method_of_the_path(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.request("PUT", "/v1/documents", headers=headers)

    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"
    head = await kit.client.head("/v1/documents", headers=headers)
    assert head.status_code == 405 and head.headers["allow"] == "GET, POST"


async def test_register_lengths_count_the_value_as_sent(kit: Kit) -> None:
    padded = "\u00a0" * 10 + "a@" + "b" * 240 + ".org"  # 246 once stripped, 256 as sent
    body = {"email": padded, "password": "correct horse battery", "name": "Asha"}
    response = await kit.client.post("/v1/auth/register", json=body)

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "email"]
    assert (await kit.register(padded.strip())).status_code == 202
