"""Pattern recognizers whose score depends on cue words near the value, read by the Indian
identifier recognizers (india_ids.py, india_vehicle.py) and the card-after-a-cue one
(numbers.py).

Presidio's own context enhancer looks at a few spaCy tokens and lifts any match, however weak,
to 0.4 when a context word is near: that is how "contractor" became a PAN next to "PAN" (its
"PAN (Low)" pattern looks ahead across the whole text for four digits). Here each pattern
carries two scores, without and with a cue; a cue is a configured word or phrase, matched in
any case as whole words (Devanagari included) within a window of characters before the value,
or right after it. Recognizers built on this class give Presidio no context words, so its
enhancer leaves their scores alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import regex
import yaml
from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from service.adapters.pii.lexicon import CONFIG_DIR, config_words

INDIA_CONFIG = CONFIG_DIR / "india.yaml"


@cache
def india_settings(path: Path = INDIA_CONFIG) -> dict[str, list[str]]:
    """india.yaml as lists of lower-case words."""
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {key: config_words(loaded, key) for key in loaded}


def words_pattern(words: Sequence[str]) -> str:
    """Whole-word alternatives, longest first; a space in a phrase matches any spacing."""
    ordered = sorted(set(words), key=len, reverse=True)
    body = "|".join(regex.escape(w).replace(r"\ ", r"[\s.:-]*") for w in ordered)
    return rf"(?<!\w)(?:{body})(?!\w)"


@dataclass(frozen=True)
class CuedPattern:
    name: str
    pattern: str  # compiled with regex.IGNORECASE unless `case_sensitive`
    score: float  # without a cue (0 drops the match)
    cued_score: float  # with a cue before (within `before` characters) or right after
    case_sensitive: bool = False


class CuedRecognizer(EntityRecognizer):
    """Regex matches scored by the cue words around them; `valid` may drop a match."""

    def __init__(
        self,
        entity: str,
        patterns: Sequence[CuedPattern],
        cues: Sequence[str],
        *,
        before: int = 45,
        after: int = 20,
        valid: Callable[[str], bool] | None = None,
    ) -> None:
        self._patterns = [
            (
                p,
                regex.compile(p.pattern, 0 if p.case_sensitive else regex.IGNORECASE),
            )
            for p in patterns
        ]
        self._cue = regex.compile(words_pattern(cues), regex.IGNORECASE)
        self._before, self._after = before, after
        self._valid = valid
        super().__init__(supported_entities=[entity], name=f"Cued{entity.title()}")

    def load(self) -> None:
        return None

    def cued(self, text: str, start: int, end: int) -> bool:
        window = text[max(0, start - self._before) : start]
        after = text[end : end + self._after]
        return bool(self._cue.search(window)) or bool(self._cue.match(after.lstrip(" (:-")))

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        entity = self.supported_entities[0]
        if entity not in entities:
            return []
        found: dict[tuple[int, int], float] = {}
        any_cue = self._cue.search(text) is not None
        for pattern, compiled in self._patterns:
            if not pattern.score and not any_cue:
                continue  # this pattern counts only near a cue, and the text has none
            for match in compiled.finditer(text):
                start, end = match.span()
                if self._valid is not None and not self._valid(match.group()):
                    continue
                score = pattern.cued_score if self.cued(text, start, end) else pattern.score
                if score > found.get((start, end), 0.0):
                    found[start, end] = score
        return [RecognizerResult(entity, s, e, score) for (s, e), score in found.items()]
