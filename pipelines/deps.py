"""What the graph's nodes receive through the runtime context (`Runtime[PipelineDeps]`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pipelines.ports import ChatModel, ChatStore, Embedder, PiiDetector, Tracer, VectorIndex
from pipelines.romanised import NO_WORDS, QueryWords
from pipelines.safety.classify import classify_message
from pipelines.safety.confidence import GateCalibration
from pipelines.safety.rules import SafetyRules
from pipelines.state import Classification
from prompts import PromptBook


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class PipelineConfig:
    confidence_threshold: float = 40.0
    core_limit: int = 15
    personal_limit: int = 5
    top_parents: int = 3
    history_window: int = 6  # messages, i.e. 3 turns
    history_days: int = 30
    answer_temperature: float = 0.3
    answer_max_tokens: int = 512
    greeting_temperature: float = 0.9
    greeting_max_tokens: int = 150
    preview_chars: int = 200
    extractive_sentences: int = 3
    answer_retries: int = 1  # WARDEN_ANSWER_RETRIES: generated answers the gate refuses, retried
    answer_max_chars: int = 3000  # the answer gate's length cap
    # WARDEN_ANSWER_STOP_RUNAWAY: read the model as a stream, stop once the gate must refuse
    answer_stop_runaway: bool = True
    answer_timeout_s: float | None = None  # a reply nobody streams, read whole within this
    keyword_map: Mapping[str, str] = field(default_factory=dict)
    query_words: QueryWords = NO_WORDS  # romanised Hindi the embedder cannot read
    allowlist: frozenset[str] = frozenset()
    safety: SafetyRules = field(default_factory=SafetyRules)
    calibration: GateCalibration | None = None  # the fitted gate (calibration.json), if any


@dataclass(frozen=True)
class PipelineDeps:
    embedder: Embedder
    index: VectorIndex
    detector: PiiDetector
    chat_model: ChatModel | None  # None: extractive answers and template greetings
    store: ChatStore
    tracer: Tracer
    prompts: PromptBook
    config: PipelineConfig = field(default_factory=PipelineConfig)
    clock: Callable[[], datetime] = utc_now
    classifier: Callable[[str, SafetyRules], Classification] = classify_message

    def classify(self, text: str) -> Classification:
        """The route decision with the configured rules: pure, local, no port."""
        return self.classifier(text, self.config.safety)
