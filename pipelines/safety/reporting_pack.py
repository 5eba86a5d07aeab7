"""The reporting cues of one language block, on its spelling fold: reported speech ("called
me", "bola ki", "ने कहा"), a request for help, the writer as the one spoken to, and the words
that point back at a quote or say who spoke it (read by pipelines/safety/reported.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pipelines.safety.expand import alternation, block_fold, expand
from pipelines.safety.matcher import NEVER
from pipelines.safety.normalize import words_of
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.spelling import Fold


@dataclass(frozen=True)
class Reporting:
    """One language's cues of reported speech ("called me", "bola ki", "ने कहा"), of a
    request for help ("what can I do", "kya karun", "मदद") and of the writer as the one
    spoken to ("me", "mujhe", "मुझे"), on the block's spelling fold."""

    language: str
    fold: Fold
    cue: re.Pattern[str]
    help: re.Pattern[str]
    victim: re.Pattern[str] = re.compile(NEVER)
    # first words that make "<speaker>: <quote>" the writer's own words (speaker_exclusions)
    not_speakers: frozenset[str] = frozenset()
    speakers: frozenset[str] = frozenset()  # a third party named as the speaker (speaker_nouns)
    legal: re.Pattern[str] = re.compile(NEVER)  # a legal matter named (legal_matters)
    harm: re.Pattern[str] = re.compile(NEVER)  # a harm told ("they hit", "maara"; harms)
    # words that point back at a quote before them ("that's how", "yahi"; reporting_back_cues),
    # the writer as the one it was said to ("me", "mujhe"; reporting_back_objects), and the
    # reader, who must not be named ("you", "tune", "bot"; reporting_back_readers)
    back: re.Pattern[str] = re.compile(NEVER)
    back_object: re.Pattern[str] = re.compile(NEVER)
    back_reader: re.Pattern[str] = re.compile(NEVER)
    # a third party said to have spoken the words before it ("my ex husband said this", "ye
    # mere senior bolte hain", "मेरे सीनियर यही बोलते हैं"): a cue and a `reporting_pointers`
    # word side by side, or the pointer up to four words before the cue
    attribution: re.Pattern[str] = re.compile(NEVER)
    agreement: re.Pattern[str] = re.compile(NEVER)  # "he was right": the reader is a target too
    not_assistant: re.Pattern[str] = re.compile(NEVER)  # "hostel warden" (assistant_look_alikes)


def reporting(abuse: Mapping[str, RuleSet]) -> tuple[Reporting, ...]:
    found = []
    for language, block in abuse.items():
        if "reporting_cues" not in block.lists:
            continue
        fold, where = block_fold(language, block), f"abuse.{language}.reporting_cues"
        # not a report right after the writer or reader, or a how-to ("FIR kaise likhte hai")
        negated = "".join(f"{{!{n}}}" for n in ("self_reporters", "how_to") if n in block.lists)
        cue = expand(negated + "{reporting_cues}", block.lists, where, fold)
        listed = _listed(block, fold)
        phrases = _phrases(block, fold)
        found.append(
            Reporting(
                language=language,
                fold=fold,
                cue=re.compile(rf"(?<!\S){cue}(?!\S)"),
                help=phrases("help_cues"),
                victim=phrases("victim_words"),
                not_speakers=frozenset(listed("speaker_exclusions")),
                speakers=frozenset(listed("speaker_nouns")),
                legal=phrases("legal_matters"),
                harm=phrases("harms"),
                back=phrases("reporting_back_cues"),
                back_object=phrases("reporting_back_objects"),
                back_reader=phrases("reporting_back_readers"),
                attribution=_attribution(block, fold, where),
                agreement=phrases("reporting_agreements"),
                not_assistant=phrases("assistant_look_alikes"),
            )
        )
    return tuple(found)


def _listed(block: RuleSet, fold: Fold) -> Callable[[str], list[str]]:
    """A list of the block in word form, on its fold."""
    return lambda name: [fold(words_of(e)) for e in block.lists.get(name, ())]


def _phrases(block: RuleSet, fold: Fold) -> Callable[[str], re.Pattern[str]]:
    """A list of the block as one whole-word regex, on its fold."""
    listed = _listed(block, fold)
    return lambda name: re.compile(rf"(?<!\S){alternation(listed(name))}(?!\S)")


def _attribution(block: RuleSet, fold: Fold, where: str) -> re.Pattern[str]:
    """A cue then a pointer ("said this", "says this": `reporting_attribution_cues` count here,
    beside a pointer; not "said this is"), or a pointer up to four words before a cue ("ye
    mere senior bolte"); NEVER for a block without `reporting_pointers`."""
    if "reporting_pointers" not in block.lists:
        return re.compile(NEVER)
    said = [n for n in ("reporting_cues", "reporting_attribution_cues") if n in block.lists]
    cue = "|".join(expand(f"{{{name}}}", block.lists, where, fold) for name in said)
    pointer = alternation(_listed(block, fold)("reporting_pointers"))
    copula = alternation(_listed(block, fold)("copulas"))
    after = rf"(?:{cue}) (?:{pointer})(?! (?:{copula})(?!\S))"
    return re.compile(rf"(?<!\S)(?:{after}|(?:{pointer})(?: \S+){{0,4}} (?:{cue}))(?!\S)")
