"""The ports: small `typing.Protocol` interfaces the pipeline and ingestion call, and the
plain records they carry. Adapters (service/adapters/) implement them; fakes in tests too."""

from pipelines.ports.accounts import AccessRule, AccountData, UserVectors, access_key
from pipelines.ports.idempotency import IdempotencyRecord, IdempotencyStore
from pipelines.ports.model import ChatModel, Completion, Message, ModelUnavailable, Role
from pipelines.ports.pii import PiiDetector, PiiSpan, resolve_overlaps
from pipelines.ports.reindex import (
    EmbeddingModel,
    EmbeddingModelMismatch,
    IndexRebuild,
    StoredChunk,
    embedding_model,
)
from pipelines.ports.sparse import SparseVector
from pipelines.ports.store import (
    AlreadyExists,
    ChatRecord,
    ChatStore,
    DocumentRecord,
    DocumentRegistry,
    HistoryCursor,
    Store,
    StoreUnavailable,
    UserRecord,
    UserStore,
)
from pipelines.ports.tracing import CallCounts, Source, Tracer
from pipelines.ports.vector import (
    INDEX_LAYOUT,
    LAYOUT_KEY,
    PENDING,
    READY,
    UPLOAD_STATE_KEY,
    DualSearchResult,
    Embedder,
    IndexBuilder,
    IndexedDocument,
    IndexPoint,
    SearchHit,
    VectorIndex,
)

__all__ = [
    "AccessRule",
    "AccountData",
    "UserVectors",
    "access_key",
    "INDEX_LAYOUT",
    "LAYOUT_KEY",
    "PENDING",
    "READY",
    "UPLOAD_STATE_KEY",
    "AlreadyExists",
    "CallCounts",
    "ChatModel",
    "ChatRecord",
    "ChatStore",
    "Completion",
    "DocumentRecord",
    "DocumentRegistry",
    "HistoryCursor",
    "IdempotencyRecord",
    "IdempotencyStore",
    "DualSearchResult",
    "Embedder",
    "EmbeddingModel",
    "EmbeddingModelMismatch",
    "IndexRebuild",
    "StoredChunk",
    "embedding_model",
    "IndexPoint",
    "IndexedDocument",
    "Message",
    "ModelUnavailable",
    "PiiDetector",
    "PiiSpan",
    "Role",
    "SearchHit",
    "Source",
    "SparseVector",
    "Store",
    "StoreUnavailable",
    "Tracer",
    "UserRecord",
    "UserStore",
    "IndexBuilder",
    "VectorIndex",
    "resolve_overlaps",
]
