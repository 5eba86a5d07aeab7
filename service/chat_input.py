"""The checks a chat message passes before any classification or masking (API and CLI alike)."""

from __future__ import annotations

from service.errors import ServiceError


def check_message(message: str, max_chars: int) -> str:
    """Size first (413 `message_too_large`), then emptiness (422 `empty_message`)."""
    if len(message) > max_chars:
        raise ServiceError(
            "message_too_large", f"The message is longer than {max_chars} characters.", 413
        )
    if not message.strip():
        raise ServiceError("empty_message", "The message is empty.", 422)
    return message
