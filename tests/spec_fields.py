"""The JSON fields SPEC section 4 promises: one list for every test that checks them."""

ASK_FIELDS = frozenset(
    {
        "route",
        "mode",
        "response",
        "confidence",
        "sources",
        "pii_found",
        "pii_entities",
        "safe_query",
        "latency_ms",
        "calls",
    }
)
CHAT_FIELDS = ASK_FIELDS | {"trace_id"}  # POST /v1/chat adds the trace id
SOURCE_FIELDS = frozenset({"source", "page", "parent_id", "preview", "score"})
CALL_KINDS = frozenset({"llm", "embed", "vector", "store"})
