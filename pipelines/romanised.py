"""Romanised Hindi (Hinglish) in a question: which of its Latin words the embedder can read.

MiniLM knows English. A question typed in romanised Hindi ("anticipatory bail kya hoti hai aur
kab leni chahiye") reaches it as English word pieces that mean nothing to it ("ky ##a", "ka
##ru"), and they pull the question away from the passage that answers it. Once the keyword map
has added English, `readable` keeps of such a question's Latin words only the English ones,
the acronyms and the words of the map's own expansions. A grammar word that carries the
question's meaning (a negation, a question word, a span of time) is not dropped but replaced by
its English gloss ("jawab 30 din mein nahi aaya" keeps "not"; "kahan" becomes "where"), in
Latin or Devanagari script (pure; the lists are configuration, service/config/query_words.yaml).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

_LATIN_WORD = re.compile(r"[A-Za-z]+")
MIN_MARKERS = 2  # words of romanised Hindi that make a question one


@dataclass(frozen=True)
class QueryWords:
    markers: frozenset[str] = frozenset()  # romanised Hindi that is no English word ("kya")
    function_words: frozenset[str] = frozenset()  # its grammar words, English look-alikes too
    english: frozenset[str] = frozenset()  # words the embedder reads, lower case
    # "nahi": "not", "कहाँ": "where" (read-only; one word per key)
    glosses: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(
        cls,
        markers: Iterable[str],
        function_words: Iterable[str],
        english: Iterable[str],
        keyword_map: Mapping[str, str],
        glosses: Mapping[str, str] | None = None,
    ) -> QueryWords:
        """The English vocabulary grows by the words of the keyword map's expansions, which
        name the knowledge base's own terms ("bailable", "stridhan")."""
        expanded = (w.lower() for value in keyword_map.values() for w in _LATIN_WORD.findall(value))
        marks = {w.lower() for w in markers}
        return cls(
            frozenset(marks),
            frozenset(w.lower() for w in function_words) | marks,
            frozenset(w.lower() for w in english) | frozenset(expanded),
            MappingProxyType({word.lower(): gloss for word, gloss in (glosses or {}).items()}),
        )

    def romanised(self, text: str) -> bool:
        """At least `MIN_MARKERS` words of romanised Hindi."""
        words = _LATIN_WORD.findall(text.lower())
        return sum(word in self.markers for word in words) >= MIN_MARKERS

    def readable(self, text: str) -> str:
        """The text without the Latin words the embedder cannot read: function words of
        romanised Hindi and words outside the English vocabulary; acronyms ("FIR"), numbers,
        punctuation and other scripts stay. A word with a gloss becomes its gloss, even one
        that is also English ("din" is "days" here, not noise)."""
        return _LATIN_WORD.sub(self._readable_word, text)

    def _readable_word(self, word: re.Match[str]) -> str:
        found = word[0]
        if found.isupper() and len(found) > 1:  # an acronym: "NA", "DIN"
            return found
        return self.gloss(found) or (found if self._reads(found) else "")

    def gloss(self, word: str) -> str:
        """The English of a grammar word that carries meaning ("nahi": "not"), else ""."""
        return self.glosses.get(word.lower(), "")

    def _reads(self, word: str) -> bool:
        if len(word) > 1 and word.isupper():
            return True
        low = word.lower()
        return low in self.english and low not in self.function_words


NO_WORDS = QueryWords()  # no romanised Hindi is recognised
