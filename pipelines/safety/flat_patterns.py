"""FlatPatterns: regexes searched anywhere in a text, each only where it can match.

Each pattern's gate (required_literals) names literals its every match holds. One scan of all
those literals, a letter trie searched again one character after each find, tells which are in
the text: at any position the trie finds the longest literal, and every other literal starting
there is a prefix of it. Only patterns whose gate is met are searched; patterns that need a
non-ASCII character are skipped for ASCII text. Ungated patterns are always searched.
"""

from __future__ import annotations

import re

from pipelines.safety.required_literals import required_literals
from pipelines.safety.trie import trie_regex

# literals a pattern's gate may list: they are all found in one scan, so a long alternation
# ("忽略|无视|...|ignora totes les instruccions") is still gated, not searched in every text
GATE_LITERALS = 64


class FlatPatterns:
    def __init__(self, patterns: list[re.Pattern[str]]) -> None:
        self.patterns = patterns
        self.gates = [required_literals(p.pattern, p.flags, most=GATE_LITERALS) for p in patterns]
        literals = {literal for gate in self.gates for literal in gate.literals or ()}
        self.scan = re.compile(trie_regex(literals)) if literals else None
        self.by_literal = {
            found: sorted(
                index
                for index, gate in enumerate(self.gates)
                if any(found.startswith(literal) for literal in gate.literals or ())
            )
            for found in literals
        }
        ungated = [i for i, gate in enumerate(self.gates) if gate.literals is None]
        self.ungated = set(ungated)
        self.ungated_ascii = {i for i in ungated if not self.gates[i].non_ascii}

    def matching(self, text: str) -> list[int]:
        """The indexes of the patterns found in the text, in order."""
        ascii_text = text.isascii()
        candidates = set(self.ungated_ascii if ascii_text else self.ungated)
        position = 0
        while self.scan is not None and (found := self.scan.search(text, position)):
            candidates.update(self.by_literal[found.group()])
            position = found.start() + 1
        return [
            index
            for index in sorted(candidates)
            if not (ascii_text and self.gates[index].non_ascii)
            and self.patterns[index].search(text)
        ]
