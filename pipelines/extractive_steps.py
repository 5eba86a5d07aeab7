"""The order of an extractive answer's lines, and the lines themselves.

The units closest to the question come first, except that the items of one list stay together
and in the list's order. When the question asks how to do something and a list ranks at the
top, the answer is that list, whole and in order (numbered steps keep their numbers), after at
most one sentence that ranked above it. When the question asks for a kind of answer (a span of
time, an amount, a place: extractive_types.py) and a line to show is an item of a short list
whose every item gives that kind ("Time limits"), the answer is that list, whole and in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipelines.extractive_prefilter import terms
from pipelines.extractive_text import lower_first
from pipelines.extractive_types import gives
from pipelines.extractive_units import Sentence

MAX_STEPS = 8  # items of a list shown for a how-to question
MAX_KIND_ITEMS = 5  # a list shown whole when its items all give the kind of answer asked
STEP_RANKS = 2  # a list answers a how-to question when one of its items ranks this high,
HEADING_COVER = 0.6  # or when its heading holds this share of the question's words
_HOW_TO = re.compile(
    r"\bhow\s+(?:do|can|should|would|could|does|did|to|is|are|will)\b"
    r"|\bwhat\s+(?:are|is)\s+the\s+(?:steps?|process|procedure)\b"
    r"|\bwhat\s+(?:can|should|must|do)\s+(?:i|we|you|one)\s+do\b"
    r"|\b(?:steps?|process|procedure|kaise|kaisey|kaise?n)\b",
    re.IGNORECASE,
)


def asks_how(question: str) -> bool:
    """'How do I ...', 'what are the steps', 'what can I do', 'kaise', 'process', 'procedure'."""
    return bool(_HOW_TO.search(question))


def _together(ordered: Sequence[Sentence], everything: Sequence[Sentence]) -> list[Sentence]:
    """`ordered` with each list's picked items moved up to its first one, in list order."""
    position = {id(u): i for i, u in enumerate(everything)}
    result: list[Sentence] = []
    for unit in ordered:
        if unit in result:
            continue
        if unit.group is None:
            result.append(unit)
            continue
        members = [u for u in ordered if u.group == unit.group]
        result.extend(sorted(members, key=lambda u: position.get(id(u), 0)))
    return result


def _in_passage_order(picked: Sequence[Sentence], everything: Sequence[Sentence]) -> list[Sentence]:
    """Passages by their best unit, each passage's units in reading order (steps in order)."""
    rank = {u.citation: i for i, u in reversed(list(enumerate(picked)))}
    position = {id(u): i for i, u in enumerate(everything)}
    return sorted(picked, key=lambda u: (rank[u.citation], position.get(id(u), 0)))


def steps_for(
    question: str, ranked: Sequence[Sentence], everything: Sequence[Sentence]
) -> list[Sentence]:
    """The list that answers a how-to question: one whose item ranks in the top
    `STEP_RANKS`, else the one whose heading holds most of the question's words."""
    top = [u for u in ranked[:STEP_RANKS] if u.group is not None]
    group = top[0].group if top else None
    if group is None:
        asked = set(terms(question))
        best = 0.0
        for unit in everything:
            cover = len(asked & set(terms(unit.section))) / len(asked) if asked else 0.0
            if unit.group is not None and cover >= max(best, HEADING_COVER) and cover > best:
                group, best = unit.group, cover
    return [u for u in everything if u.group == group][:MAX_STEPS] if group else []


def list_of_kind(
    shown: Sequence[Sentence], everything: Sequence[Sentence], kinds: tuple[str, ...]
) -> list[Sentence]:
    """A short list whose every item gives the kind of answer asked ("Time limits: 30 days
    for a normal reply; 48 hours when ...; 35 days ..."), when one of its items is among the
    lines to show: the whole list, in order, after at most one line ranked above it that gives
    the kind too. Each item must give it in its own words, not through its heading or intro
    (every item under "Court fees" would). Empty otherwise."""
    for position, unit in enumerate(shown):
        if unit.group is None:
            continue
        members = [u for u in everything if u.group == unit.group]
        if len(members) <= MAX_KIND_ITEMS and all(gives(u.text, kinds) for u in members):
            above = [u for u in shown[:position] if u.group is None and gives(u.text, kinds)]
            return [*above[:1], *members]
    return []


def arrange(
    ranked: Sequence[Sentence],
    everything: Sequence[Sentence],
    *,
    count: int,
    how_to: str = "",
    kinds: tuple[str, ...] = (),
) -> tuple[list[Sentence], bool]:
    """The units to show, in order, and whether they are one list's steps (numbers shown).

    `ranked` is the shortlist best first; `everything` every unit of the passages, in reading
    order (where a chosen list's other items come from); `how_to` the question when it asks
    how to do something."""
    if count <= 0 or not ranked:
        return [], False
    steps = steps_for(how_to, ranked, everything) if how_to else []
    if steps:  # a how-to question's steps come before any list of the kind asked
        first = steps[0]
        same = [u for u in ranked if (u.citation, u.section) == (first.citation, first.section)]
        above = [u for u in same[:1] if u.group is None]
        return [*above, *steps], True
    if kinds and (listed := list_of_kind(ranked[:count], everything, kinds)):
        return listed, False
    if how_to:
        return _in_passage_order(ranked[:count], everything), False
    return _together(ranked[:count], everything), False


def render_lines(units: Sequence[Sentence], *, numbered: bool) -> list[str]:
    """'- text [n]' lines. A list's intro is read once, into its first line; fragment items
    of one list that follow each other share one line ('intro a; b; c.')."""
    lines: list[str] = []
    previous: Sentence | None = None
    for unit in units:
        same_list = previous is not None and unit.group is not None
        same_list = same_list and previous is not None and previous.group == unit.group
        if unit.joined and same_list and previous is not None and previous.joined:
            head = lines.pop().rsplit(" [", 1)[0].rstrip(".")
            lines.append(f"{head}; {unit.clause}. [{unit.citation}]")
        else:
            lines.append(
                f"- {_line_text(unit, numbered, show_lead=not same_list)} [{unit.citation}]"
            )
        previous = unit
    return lines


def _line_text(unit: Sentence, numbered: bool, *, show_lead: bool) -> str:
    if unit.joined:
        return unit.text
    marked = numbered and bool(unit.marker)
    text = f"{unit.marker} {unit.text}" if marked else unit.text
    if unit.lead and show_lead:
        text = f"{unit.lead} {text if marked else lower_first(text)}"
    return text
