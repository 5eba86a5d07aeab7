"""Fixtures shared by the integration tests."""

from tests.integration.llm_server import llm_server

__all__ = ["llm_server"]
