"""PiiDetector adapter: Presidio's pattern recognizers, no spaCy model, no downloads.

The NLP engine is a blank spaCy English pipeline (a tokenizer only) whose lemma is the
lowercased word, so Presidio's context words ("ssn", "passport", "aadhaar") still raise
scores. The email recognizer's tldextract check uses the public-suffix snapshot bundled
with tldextract and never fetches the live list (its default does, on first use).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import spacy
from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry
from presidio_analyzer.nlp_engine import SlimSpacyNlpEngine
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    InAadhaarRecognizer,
    InPanRecognizer,
    InPassportRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UsSsnRecognizer,
)
from spacy.language import Language
from spacy.tokens import Doc
from tldextract import TLDExtract

from pipelines.ports import PiiSpan

from .span_overlaps import resolve_overlaps

LANGUAGE = "en"
# No cache folder, no URLs: the suffix list comes from tldextract's bundled snapshot.
OFFLINE_TLD_EXTRACT = TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's email recognizer, validating the domain against the bundled suffix list."""

    def validate_result(self, pattern_text: str) -> bool:
        return OFFLINE_TLD_EXTRACT(pattern_text).fqdn != ""


@Language.component("warden_lowercase_lemma")
def _lowercase_lemma(doc: Doc) -> Doc:
    for token in doc:
        token.lemma_ = token.lower_
    return doc


class BlankSpacyNlpEngine(SlimSpacyNlpEngine):
    """Tokens and lowercase 'lemmas' from spacy.blank: enough for context words, no model."""

    def __init__(self) -> None:
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": "blank"}], auto_download=False
        )

    def load(self) -> None:
        nlp = spacy.blank(LANGUAGE)
        nlp.add_pipe("warden_lowercase_lemma")
        self.nlp = {LANGUAGE: nlp}  # type: ignore[assignment]  # the base declares None


def default_recognizers() -> list[EntityRecognizer]:
    """Structured identifiers only; names and addresses need NER (not loaded here)."""
    return [
        OfflineEmailRecognizer(),
        PhoneRecognizer(),
        CreditCardRecognizer(),
        IbanRecognizer(),
        IpRecognizer(),
        UsSsnRecognizer(),
        InAadhaarRecognizer(),  # the Indian recognizers are off by default in Presidio
        InPanRecognizer(),
        InPassportRecognizer(),
    ]


class PresidioPiiDetector:
    """Implements the PiiDetector port. Builds its analyzer once; `detect` runs off the loop."""

    def __init__(
        self,
        *,
        recognizers: Sequence[EntityRecognizer] | None = None,
        score_threshold: float = 0.4,
    ) -> None:
        registry = RecognizerRegistry(supported_languages=[LANGUAGE])
        for recognizer in recognizers if recognizers is not None else default_recognizers():
            registry.add_recognizer(recognizer)
        self.score_threshold = score_threshold
        self._analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=BlankSpacyNlpEngine(),
            supported_languages=[LANGUAGE],
            default_score_threshold=score_threshold,
        )
        # spaCy's tokenizer and tldextract's lazy load are not documented as thread-safe;
        # one analysis takes about a millisecond, so calls are simply serialised.
        self._lock = threading.Lock()

    @property
    def entity_types(self) -> list[str]:
        return sorted(self._analyzer.get_supported_entities(language=LANGUAGE))

    def detect_sync(self, text: str) -> list[PiiSpan]:
        if not text.strip():
            return []
        with self._lock:
            results = self._analyzer.analyze(text=text, language=LANGUAGE)
        spans = [PiiSpan(r.start, r.end, r.entity_type, float(r.score)) for r in results]
        return resolve_overlaps(spans)

    def warm(self) -> None:
        """Runs every recognizer once (loads the suffix snapshot, compiles the regexes)."""
        self.detect_sync("warm up: a@example.com +1 212 555 0199 4111 1111 1111 1111")

    async def detect(self, text: str) -> list[PiiSpan]:
        return await asyncio.to_thread(self.detect_sync, text)
