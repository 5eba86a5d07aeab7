"""A quote first, then the words that point back at it or name who spoke it (pure).

"idiot, moron - that's how my father talks to me", "randi, kutiya, yahi bolta hai mera pati
mujhe", "you stupid woman, get out. my landlord said this": read by reported.py, which takes
the quote out and reads what is left again.
"""

from __future__ import annotations

import re

from pipelines.safety.reporting_pack import Reporting
from pipelines.safety.rules import SafetyRules

# what may follow a cue that ends an attribution ("he said that yesterday", "she says it daily")
_TAIL_WORDS = frozenset(
    ("this", "that", "it", "so", "to", "me", "us", "yesterday", "today", "tonight", "daily")
    + ("always", "again", "once", "every", "day", "night", "morning", "evening", "time", "then")
    + ("last", "week", "month", "year")
)
_DASH = re.compile(r"\s+[-\u2013\u2014]+\s+")
# a quote in quotation marks (an ellipsis once outside_quotes has taken it out), a dash, and
# the rest of the sentence: '"..." - husband after drinking'
_CITATION = re.compile(r"\u2026\s*[-\u2013\u2014]+\s*([^.!?\n\u0964\u2026]+)")
_POSSESSIVES = frozenset(
    ("my", "his", "her", "our", "their", "mera", "meri", "mere", "hamara", "humara", "uska")
    + ("uski", "uske", "मेरा", "मेरी", "मेरे", "हमारा", "उसका", "उसकी", "उसके")
)


def quote_before(
    clauses: list[str], before: list[list[str]], rules: SafetyRules
) -> tuple[int, str, int, str, bool] | None:
    """(clause index, language, how many sentences before are the quote, what follows the
    pointing part in its clause, whether a speaker was named) when a clause, or its part after
    a dash, points back at a quote said to no one that holds an epithet, or at a passage in
    quotation marks ("idiot, moron, good for nothing - that's how my father talks to me",
    "randi, kutiya, yahi bolta hai mera pati mujhe", "Idiot! Moron! That's how he talks to
    me."): "you idiot, that's how my boss talks to me" and "saale kutte, yahi bola tha mujhe
    tune" are not. Or it names who spoke the words before it in its sentence or the sentence
    just before ("... - my ex husband said this"), whoever they were said to."""
    for index, clause in enumerate(clauses):
        parts = _DASH.split(clause)
        for cut, part in enumerate(parts):
            speaker = _attributes(part, rules)  # asked first: it also reads what follows
            language = speaker or _points_back(part, rules)
            if language is None:
                continue
            after = " ".join(parts[cut + 1 :])  # "... talks to me - kill yourself" is read again
            lead = clauses[:index] + parts[:cut]
            if speaker is not None:  # the quote in this sentence, or else in the one before
                if _said(lead, rules):
                    return index, speaker, 0, after, True
                ends = not _said([after, *clauses[index + 1 :]], rules)  # "... my son said this."
                return (
                    (index, speaker, 1, after, True)
                    if ends and before and _said(before[-1], rules)
                    else None
                )
            if "\u2026" in "".join(lead) and not _said(lead, rules):
                return index, language, 0, after, False  # '"idiot, moron" - that's how he ...'
            quote, earlier = _said(lead, rules), 0
            while not quote and earlier < len(before):
                sentence = _said(before[-1 - earlier], rules)
                if sentence and not _epithets(sentence, rules):
                    break
                earlier += 1  # the sentences just before ("Idiot! Moron!"), empty ones too
            quote = quote or [c for s in before[len(before) - earlier :] for c in _said(s, rules)]
            if quote and _epithets(quote, rules):
                return index, language, earlier, after, False
            return None
    return None


def _said(clauses: list[str], rules: SafetyRules) -> list[str]:
    return [clause for clause in clauses if rules.compiled.prepare(clause).words]


def _points_back(part: str, rules: SafetyRules) -> str | None:
    """The language of a part that points back ("that's how", "yahi") at words said to the
    writer ("me", "mujhe") and names no reader ("you", "tune")."""
    words = rules.compiled.prepare(part).words
    for pack in rules.compiled.reporting:
        folded = pack.fold(words)
        found = pack.back.search(folded) and pack.back_object.search(folded)
        if found and not pack.back_reader.search(folded):
            return pack.language
    return None


def _attributes(part: str, rules: SafetyRules) -> str | None:
    """The language of a part that names a third party as the one who spoke the words before
    it ("my ex husband said this", "ye mere senior bolte hain", "..., he said"), and no reader
    in any language."""
    words = rules.compiled.prepare(part).words
    packs = rules.compiled.reporting
    if any(pack.back_reader.search(pack.fold(words)) for pack in packs):
        return None
    for pack in packs:
        folded = pack.fold(words)
        if pack.attribution.search(folded) or _ends_with_cue(folded, pack.cue):
            return pack.language if names_speaker(words, rules) else None
    return None


def _ends_with_cue(folded: str, cue: re.Pattern[str]) -> bool:
    """A cue followed only by a pointer or a time ("you are a whore, he said", "..., my husband
    said that yesterday"): not "... called me a bitch" or "... said this is true", where what
    follows is what was said."""
    ends = [found.end() for found in cue.finditer(folded)]
    return bool(ends) and set(folded[ends[-1] :].split()) <= _TAIL_WORDS


def names_speaker(words: str, rules: SafetyRules) -> bool:
    """A third party named (any language's `speaker_nouns`), possessive too ("husband's")."""
    return any(_speaker_in(pack, pack.fold(words).split()) for pack in rules.compiled.reporting)


def _speaker_in(pack: Reporting, said: list[str]) -> bool:
    """One of the pack's `speaker_nouns` among the words, or their possessive ("husband's")."""
    return not pack.speakers.isdisjoint(said + [w.removesuffix("s") for w in said])


def _epithets(clauses: list[str], rules: SafetyRules) -> bool:
    """Words said to no one ("you", "tu", the assistant's names), one of them an epithet
    ("idiot", "kutiya"): "idiot, moron, good for nothing", not "you idiot" or "fuck you"."""
    compiled = rules.compiled
    said = [c for text in clauses for c in compiled.prepare(text).clauses]
    unaddressed = all(
        compiled.addressed_words.isdisjoint(c.split())
        and not any(p.back_reader.search(p.fold(c)) for p in compiled.reporting)
        for c in said
    )
    return unaddressed and any(rule.fires(c) for c in said for rule in compiled.standalone)


def cites(outside: str, rules: SafetyRules) -> str | None:
    """The language of a third party named right after a quote and a dash ('"..." - husband
    after drinking', '"..." - my boss, every day'), in a part that names no reader."""
    packs = rules.compiled.reporting
    for found in _CITATION.finditer(outside):
        words = rules.compiled.prepare(found.group(1)).words.split()
        first = words[1:2] if words[:1] and words[0] in _POSSESSIVES else words[:1]
        if not first or any(p.back_reader.search(p.fold(" ".join(words))) for p in packs):
            continue
        for pack in packs:
            if _speaker_in(pack, [pack.fold(first[0])]):
                return pack.language
    return None
