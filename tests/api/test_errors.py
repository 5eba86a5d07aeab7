"""Bad input gets a stable 4xx code in the envelope, never an echo of what was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator

from pipelines.state import Classification
from tests.api.conftest import Kit, KitFactory

PLANTED = "planted-4111-1111-1111-1111"


async def test_malformed_json_is_422_and_not_echoed(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    headers["Content-Type"] = "application/json"
    response = await kit.client.post(
        "/v1/chat", content=f'{{"message": "{PLANTED}", '.encode(), headers=headers
    )

    assert response.status_code == 422
    assert response.json() == {"error": "malformed_json", "detail": response.json()["detail"]}
    assert PLANTED not in response.text
    assert kit.detector.calls == 0 and kit.embedder.calls == 0


async def test_validation_errors_name_the_field_but_not_the_value(kit: Kit) -> None:
    headers = await kit.headers_for("asha@example.org")
    for body in ({"message": [PLANTED]}, {"text": PLANTED}, {"message": "hi", "user_id": PLANTED}):
        response = await kit.client.post("/v1/chat", json=body, headers=headers)
        assert response.status_code == 422, body
        assert response.json()["error"] == "invalid_request"
        assert all(set(item) == {"loc", "msg"} for item in response.json()["detail"])
        assert PLANTED not in response.text


async def test_declared_oversized_body_is_413_before_reading(make_kit: KitFactory) -> None:
    kit = await make_kit(max_body_bytes=1024)
    headers = await kit.headers_for("asha@example.org")
    body = b'{"message": "' + b"a" * 2000 + b'"}'
    response = await kit.client.post("/v1/chat", content=body, headers=headers)

    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"
    assert kit.detector.calls == 0


async def test_streamed_oversized_body_is_413(make_kit: KitFactory) -> None:
    kit = await make_kit(max_body_bytes=1024)
    headers = await kit.headers_for("asha@example.org")
    headers["Content-Type"] = "application/json"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"message": "'
        for _ in range(10):
            yield b"a" * 200
        yield b'"}'

    response = await kit.client.post("/v1/chat", content=chunks(), headers=headers)

    assert "content-length" not in response.request.headers
    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"
    assert kit.detector.calls == 0


async def test_unknown_route_and_method_use_the_envelope(kit: Kit) -> None:
    missing = await kit.client.get("/v1/nothing-here")
    wrong_method = await kit.client.delete("/healthz")

    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert wrong_method.status_code == 405 and wrong_method.json()["error"] == "method_not_allowed"


async def test_unexpected_failure_is_a_500_that_leaks_nothing(kit: Kit) -> None:
    real = kit.container.chat.pipeline

    class Exploding:
        def classify(self, query: str) -> Classification:
            return real.classify(query)

        async def answer(self, query: str, verdict: Classification, **_: object) -> object:
            raise RuntimeError(f"boom with {query}")

    kit.container.chat.pipeline = Exploding()  # type: ignore[assignment]
    headers = await kit.headers_for("asha@example.org")
    response = await kit.client.post("/v1/chat", json={"message": PLANTED}, headers=headers)

    assert response.status_code == 500
    assert response.json() == {"error": "internal_error", "detail": response.json()["detail"]}
    assert PLANTED not in response.text and "boom" not in response.text


async def test_uploads_get_their_own_larger_cap(make_kit: KitFactory) -> None:
    kit = await make_kit(max_body_bytes=1024, max_upload_bytes=4096)
    body = b"x" * 2048

    assert (await kit.client.post("/v1/chat", content=body)).status_code == 413
    assert (await kit.client.post("/v1/documents", content=body)).status_code != 413
    assert (await kit.client.post("/v1/documents", content=body * 3)).status_code == 413
