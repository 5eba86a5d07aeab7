"""The regexes of a writer's plan after a thanks ("I'll draft the RTI tonight"), built from the
greeting blocks' `thanks_plan_*` lists (pipelines/safety/thanks_closure.py reads them)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pipelines.safety.expand import alternation
from pipelines.safety.normalize import words_of
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.trie import NEVER

# at most this many words of the closed lists before the thing ("company ne notice milne ke baad
# pichle do mahine ki salary de di": ten)
OUTCOME_LEAD_WORDS = 16
# what may come before a plan in its clause: "ok thanks ji, tomorrow i will go"
PLAN_LEAD_LISTS = ("acknowledgements", "thanks_words", "thanks_plan_lead", "thanks_plan_adverbs")


def entries(languages: Mapping[str, RuleSet], name: str) -> list[str]:
    return [entry for block in languages.values() for entry in block.lists.get(name, ())]


def words_in(languages: Mapping[str, RuleSet], names: tuple[str, ...]) -> frozenset[str]:
    """Every word of every entry of the named lists ("ok sir" gives "ok" and "sir")."""
    return frozenset(
        word for name in names for entry in entries(languages, name)
        for word in words_of(entry).split()
    )  # fmt: skip


def plan_prefix(languages: Mapping[str, RuleSet]) -> frozenset[str]:
    """The words that may come before "i will" inside a clause: a thanks, an acknowledgement,
    an adverb, or the words of a plan ("tomorrow first thing i will go")."""
    return words_in(languages, PLAN_LEAD_LISTS + ("thanks_plan_words",))


def plan_regex(
    languages: Mapping[str, RuleSet], opening_only: bool = False, inner: bool = False
) -> re.Pattern[str]:
    """A plan at the start of a clause: a first person's future ("i will", or at the clause's
    start a bare "will"), adverbs, then a verb of acting on advice ("draft", "send"), or going
    somewhere ("going to [the forum]", `thanks_plan_moves`); with `opening_only`, the future
    alone, whatever verb follows; `inner`: "i will" and its verb anywhere (its caller checks
    what comes before)."""
    verbs = entries(languages, "thanks_plan_verbs")
    if not verbs:
        return re.compile(NEVER)
    acts = rf"(?:(?:{alternation(entries(languages, 'thanks_plan_adverbs'))}) )*"
    acts += rf"(?:{alternation(verbs)})(?!\S)"
    leads = [entry for name in PLAN_LEAD_LISTS for entry in entries(languages, name)]
    acks = rf"(?:(?:{alternation(leads)}) )*"
    openers = alternation(entries(languages, "thanks_plan_openers"))
    starts = alternation(entries(languages, "thanks_plan_starts"))
    moves = alternation(entries(languages, "thanks_plan_moves"))  # "going to [the forum]"
    if opening_only:
        return re.compile(rf"{acks}(?:(?:{openers})|(?:{starts})|(?:{moves}))(?!\S)")
    if inner:
        return re.compile(rf"(?<!\S)(?:{openers}) {acts}")
    return re.compile(rf"{acks}(?:(?:(?:{openers})|(?:{starts})) {acts}|(?:{moves})(?!\S))")


def won_regex(languages: Mapping[str, RuleSet]) -> re.Pattern[str]:
    """What the writer won since, said of their own thing (`thanks_won`, `thanks_won_verbs`):
    "the landlord returned my deposit", "my widow pension application is approved", "we got
    back our deposit". Each form names the verb in a group of its own (`verb*`)."""
    won, verbs = entries(languages, "thanks_won"), entries(languages, "thanks_won_verbs")
    if not won or not verbs:
        return re.compile(NEVER)
    thing, done = alternation(won, plural=True), alternation(verbs)
    linking = r"(?:(?:is|was|has|have|been|got|finally|now|also|all) )*"
    return re.compile(
        rf"(?<!\S)(?:(?P<verb>{done}) (?:back )?(?:my|our) (?:\S+ ){{0,2}}(?:{thing})"
        rf"|(?:my|our) (?:\S+ ){{0,3}}(?:{thing}) {linking}(?P<verb_after>{done})"
        rf"|(?:i|we) (?:(?:finally|have|also|all) )*(?P<verb_got>got|received) (?:back )?"
        rf"(?:my|our) (?:\S+ ){{0,2}}(?:{thing}))(?!\S)"
    )


def outcome_regex(languages: Mapping[str, RuleSet]) -> re.Pattern[str]:
    """The matters settled since (`thanks_outcomes`: "got bail", "bail mil gayi") and, where the
    verb comes last, a clause made only of who did it (`thanks_won_agents`), whose thing
    (`thanks_won_owners`), times and thanks words (`thanks_won_times`), then the thing
    (`thanks_won_objects`), a few `thanks_outcome_tails` and a verb that says it came
    (`thanks_won_ends`; `thanks_won_given` only after who gave it): "bima company ne claim
    pass kar diya", "मम्मी की पेंशन आज चालू हो गई". The lead is one bounded repetition, so a
    long clause that fails costs linear time."""
    said = alternation(entries(languages, "thanks_outcomes"))
    if not (things := entries(languages, "thanks_won_objects")):
        return re.compile(rf"(?<!\S)(?:{said})(?!\S)")
    part = {name: alternation(entries(languages, f"thanks_won_{name}"))
            for name in ("agents", "ends", "given")}  # fmt: skip
    leads = entries(languages, "thanks_won_times") + entries(languages, "thanks_words")
    leads += entries(languages, "thanks_won_owners") + entries(languages, "thanks_won_agents")
    lead = rf"(?:(?:{alternation(leads)}|\d{{1,2}}) ){{0,{OUTCOME_LEAD_WORDS}}}"
    tails = alternation(entries(languages, "thanks_outcome_tails"))
    thing = rf"(?:(?:{alternation(things)}) ){{1,3}}(?:(?:{tails}) ){{0,4}}"
    came = rf"^{lead}{thing}(?:{part['ends']})"
    agent_first = rf"(?=(?:\S+ ){{0,{OUTCOME_LEAD_WORDS}}}?(?:{part['agents']}) )"
    given = rf"^{agent_first}{lead}{thing}(?:{part['given']})"
    return re.compile(rf"(?<!\S)(?:{said}|{came}|{given})(?!\S)")
