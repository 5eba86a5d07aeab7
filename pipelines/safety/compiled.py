"""The regexes and vocabularies of one SafetyRules instance, built once (SafetyRules.compiled).

How list entries and patterns become regexes: pipelines/safety/expand.py; the parts that run on
a language block's own spelling fold (bare insults, folded abuse rules, greetings):
pipelines/safety/packs.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pipelines.safety import plan_words
from pipelines.safety.expand import PLURAL_LISTS, alternation, checked
from pipelines.safety.expand import named_patterns as _named
from pipelines.safety.first_words import WholeText
from pipelines.safety.matcher import RuleMatcher
from pipelines.safety.normalize import Prepared, prepare, words_of
from pipelines.safety.packs import (
    Folded,
    Standalone,
    folded_abuse,
    greeting_phrases,
    greetings,
    masked_lookup,
    standalone,
)
from pipelines.safety.plan_words import entries, plan_prefix, plan_regex, won_regex, words_in
from pipelines.safety.reporting_pack import Reporting, reporting
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.spelling import Fold
from pipelines.safety.thanks_news import NewsWords, news_words
from pipelines.safety.trie import NEVER

__all__ = ["PLURAL_LISTS", "CompiledRules", "RuleMatcher", "Standalone", "alternation"]

DIRECTION_LISTS = ("second_person", "assistant_nouns")  # who a scorer-worthy clause addresses
# the words that address the reader in any language (the message models' gate)
ADDRESS_LISTS = (*DIRECTION_LISTS, "you_forms", "addressee", "polite_you", "addressing_forms")
# ... in the languages the message models read ("ya", "ye": Hinglish "or", "this"; "ai": a thing)
ADDRESS_LANGUAGES = ("en", "hinglish", "hi")
# all an open plan's clause may hold but for one word (pipelines/safety/thanks_plans.py)
PLAN_WORD_LISTS = ("thanks_plan_words", "thanks_plan_verbs", "thanks_plan_adverbs")
NOT_ADDRESSING = frozenset({"ya", "ye", "ai", "machine", "robot", "llm", "gpt"})


@dataclass(frozen=True)
class CompiledRules:
    vocab: frozenset[str]
    by_length: Mapping[int, tuple[str, ...]]
    abuse: RuleMatcher
    abuse_bare: RuleMatcher
    abuse_folded: tuple[Folded, ...]  # blocks with a `spelling` fold, run on folded clauses
    reporting: tuple[Reporting, ...]  # reported speech and requests for help, per language
    abuse_spares: tuple[tuple[str, re.Pattern[str]], ...]  # (name, regex): spans to cut out
    standalone: tuple[Standalone, ...]
    direction_words: frozenset[str]
    addressed_words: frozenset[str]
    assistant_words: frozenset[str]  # "bot", "ai", "warden": a quote naming them is not reported
    request_opener: re.Pattern[str]
    conditional_opener: re.Pattern[str]
    profanity_words: frozenset[str]
    injection: RuleMatcher
    injection_signals: RuleMatcher
    indirect: RuleMatcher
    document: RuleMatcher  # flat patterns for uploaded documents only
    decode_cues: frozenset[str]  # words that make ROT13, reversed or split text worth reading
    wrongdoing: re.Pattern[str]  # a crime's words ("forge", "rishwat"): hidden, an attack
    greeting_full: tuple[tuple[Fold, WholeText], ...]  # one regex per spelling fold
    greeting_any: tuple[tuple[Fold, re.Pattern[str]], ...]
    # with the closing remarks, which count only next to a thanks or a goodbye phrase
    greeting_closing: tuple[tuple[Fold, WholeText], ...]
    mention_cues: frozenset[str]
    # a thanks with a closing statement (pipelines/safety/second_look.py)
    thanks_words: frozenset[str] = frozenset()
    asking_words: frozenset[str] = frozenset()
    thanks_turns: re.Pattern[str] = re.compile(NEVER)
    thanks_closings: re.Pattern[str] = re.compile(NEVER)  # what closes a conversation
    thanks_negations: re.Pattern[str] = re.compile(NEVER)
    # what settles a thanks that names a legal matter: understood, will act, got it, praise
    thanks_resolutions: re.Pattern[str] = re.compile(NEVER)
    thanks_outcomes: re.Pattern[str] = re.compile(NEVER)  # "got bail", at its clause's end
    thanks_outcome_tails: frozenset[str] = frozenset()  # words that may follow it ("today")
    thanks_won: re.Pattern[str] = re.compile(NEVER)  # "the landlord returned my deposit"
    thanks_won_risks: re.Pattern[str] = re.compile(NEVER)  # "rejected", "lottery": no win
    thanks_news: NewsWords = NewsWords()  # a thing won beside a thanks (thanks_news.py)
    thanks_plan_number_leads: frozenset[str] = frozenset()  # "form" in "form 16"
    thanks_plan_endings: tuple[str, ...] = ()  # "jaungi", "जाऊँगी": the writer will act
    thanks_plan_under_way: re.Pattern[str] = re.compile(NEVER)  # "ja rahi hu": acting now
    # "I'll draft the RTI tonight", "will send the notice": a plan at the start of a clause
    thanks_plans: re.Pattern[str] = re.compile(NEVER)
    thanks_plan_opening: re.Pattern[str] = re.compile(NEVER)  # "will ...", whatever follows
    thanks_plan_inner: re.Pattern[str] = re.compile(NEVER)  # "i will draft", inside a clause
    thanks_plan_prefix: frozenset[str] = frozenset()  # what may come before it
    thanks_as_advised: re.Pattern[str] = re.compile(NEVER)  # "as you said": the advice followed
    thanks_plan_words: frozenset[str] = frozenset()  # all a handover's clause may hold
    thanks_plan_handovers: frozenset[str] = frozenset()  # "give": only `thanks_plan_words`
    thanks_plan_risks: re.Pattern[str] = re.compile(NEVER)  # "pay", "alone": no plan of advice
    thanks_plan_safe: re.Pattern[str] = re.compile(NEVER)  # "ration card": no risk named
    thanks_plan_moves: re.Pattern[str] = re.compile(NEVER)  # "going to": a place follows
    thanks_done_leads: frozenset[str] = frozenset()  # "i have", "finally": before a step taken
    thanks_done_verbs: frozenset[str] = frozenset()  # "went": a step taken (the head's veto)
    embedded_after: frozenset[str] = frozenset()  # "understand [what a zero FIR is]"
    embedded_subjects: frozenset[str] = frozenset()
    thanks_idioms: re.Pattern[str] = re.compile(NEVER)  # "can't thank you enough"
    blessings: re.Pattern[str] = re.compile(NEVER)  # a thanks without its word
    thanks_praise: re.Pattern[str] = re.compile(NEVER)  # "you explained it so well"
    known_asks: re.Pattern[str] = re.compile(NEVER)  # "now I know [what to do]": asks nothing
    more_asks: re.Pattern[str] = re.compile(NEVER)  # "explain more pls": more of the answer
    thanks_requests: re.Pattern[str] = re.compile(NEVER)  # "thanks. i also need the format"
    crisis: re.Pattern[str] = re.compile(NEVER)  # self-harm named: never a greeting
    acknowledgements: frozenset[str] = frozenset()  # a clause that is only "ok", "noted"
    not_english: frozenset[str] = frozenset()  # a clause with two is not the scorer's
    acknowledgement_words: frozenset[str] = frozenset()  # "ok sir noted": words of them
    thanks_contrasts: frozenset[str] = frozenset()  # "but", unless what follows settles it
    settling_tail_words: frozenset[str] = frozenset()  # "but now i know [the process]"
    remark_topics: frozenset[str] = frozenset()  # "monsoon", "biryani": a remark's topic
    remark_words: frozenset[str] = frozenset()  # "lol", "today": what may surround it
    remark_risks: re.Pattern[str] = re.compile(NEVER)  # "no food": no remark
    question_words: frozenset[str] = frozenset()
    greeting_emoji: frozenset[str] = frozenset()  # a message of only these is a greeting
    greeting_followups: frozenset[str] = frozenset()  # "ok so?": with a "?", no greeting

    def prepare(self, text: str) -> Prepared:
        return prepare(text, self.vocab, self.by_length)

    def abuse_hits(self, clause: str, *, bare: bool = False) -> list[str]:
        """The abuse rules (or the bare-only ones) that match one clause, in every language."""
        hits = (self.abuse_bare if bare else self.abuse).all(clause)
        for group in self.abuse_folded:
            matcher = group.abuse_bare if bare else group.abuse
            if not (matcher.skips_ascii and clause.isascii()):  # the fold keeps ASCII ASCII
                hits += matcher.all(group.fold(clause))
        return hits


def compile_rules(
    abuse: Mapping[str, RuleSet],
    injection: Mapping[str, RuleSet],
    greeting: Mapping[str, RuleSet],
    indirect: Mapping[str, str],
    mention_cues: Iterable[str],
    document: Mapping[str, str] | None = None,
) -> CompiledRules:
    """The regexes and vocabularies of a SafetyRules' sections (`SafetyRules.compiled`)."""
    flat = [(f"injection.indirect.{n}", checked(p, n, words=False)) for n, p in indirect.items()]
    in_documents = [(f"injection.document.{n}", checked(p, n, words=False))
                    for n, p in (document or {}).items()]  # fmt: skip
    plain = {language: block for language, block in abuse.items() if not block.spelling}
    spares = _named("abuse.spared", abuse, part="spares")
    return CompiledRules(
        vocab=frozenset(_vocabulary(abuse, greeting)),
        by_length=masked_lookup(abuse),
        abuse=RuleMatcher(_named("abuse", plain), words=True),
        abuse_bare=RuleMatcher(_named("abuse", plain, part="bare_patterns"), words=True),
        abuse_folded=folded_abuse(abuse),
        reporting=reporting(abuse),
        abuse_spares=tuple((name, re.compile(regex)) for name, regex in spares),
        standalone=tuple(
            standalone(name, block) for name, block in abuse.items() if "insults" in block.lists
        ),
        direction_words=_single_words(abuse, DIRECTION_LISTS),
        assistant_words=_single_words(abuse, ("assistant_nouns",)),
        addressed_words=_single_words(
            {k: abuse[k] for k in ADDRESS_LANGUAGES if k in abuse}, ADDRESS_LISTS
        )
        - NOT_ADDRESSING,
        request_opener=_opener(abuse, "request_openers"),
        conditional_opener=_opener(abuse, "conditional_openers"),
        profanity_words=_single_words(abuse, ("profanity",)),
        not_english=_single_words(abuse, ("not_english",)),
        injection=RuleMatcher(_named("injection", injection), words=True),
        injection_signals=RuleMatcher(_named("signal", injection, part="signals"), words=True),
        indirect=RuleMatcher(flat, words=False, flags=re.MULTILINE),
        document=RuleMatcher(in_documents, words=False, flags=re.MULTILINE),
        decode_cues=_single_words(injection, ("decode_cues",)),
        wrongdoing=_phrases(injection, "wrongdoing"),
        greeting_full=greetings(greeting),
        greeting_any=greeting_phrases(greeting),
        greeting_closing=greetings(greeting, closings=True),
        mention_cues=frozenset(w for cue in mention_cues for w in words_of(cue).split()),
        thanks_words=_single_words(greeting, ("thanks_words",)),
        asking_words=_single_words(greeting, ("asking",)),
        thanks_turns=_phrases(greeting, "thanks_turns"),
        thanks_closings=_phrases(greeting, "thanks_closings"),
        thanks_negations=_phrases(greeting, "thanks_negations"),
        thanks_resolutions=_phrases(greeting, "thanks_resolutions"),
        thanks_outcomes=plan_words.outcome_regex(greeting),
        thanks_outcome_tails=_single_words(greeting, ("thanks_outcome_tails",)),
        thanks_won=won_regex(greeting),
        thanks_won_risks=_phrases(greeting, "thanks_won_risks"),
        thanks_news=news_words(greeting),
        thanks_plan_number_leads=_single_words(greeting, ("thanks_plan_number_leads",)),
        thanks_plan_endings=tuple(entries(greeting, "thanks_plan_endings")),
        thanks_plan_under_way=_phrases(greeting, "thanks_plan_under_way"),
        thanks_plans=plan_regex(greeting),
        thanks_plan_opening=plan_regex(greeting, opening_only=True),
        thanks_plan_inner=plan_regex(greeting, inner=True),
        thanks_as_advised=_phrases(greeting, "thanks_as_advised"),
        thanks_plan_prefix=plan_prefix(greeting),
        thanks_plan_words=_single_words(greeting, PLAN_WORD_LISTS),
        thanks_plan_handovers=_single_words(greeting, ("thanks_plan_handovers",)),
        thanks_plan_risks=_phrases(greeting, "thanks_plan_risks"),
        thanks_plan_safe=_phrases(greeting, "thanks_plan_safe"),
        thanks_plan_moves=_phrases(greeting, "thanks_plan_moves"),
        thanks_done_leads=_single_words(greeting, ("thanks_done_leads",)),
        thanks_done_verbs=_single_words(greeting, ("thanks_done_verbs",)),
        embedded_after=_single_words(greeting, ("embedded_after",)),
        embedded_subjects=_single_words(greeting, ("embedded_subjects",)),
        thanks_idioms=_phrases(greeting, "thanks_idioms"),
        blessings=_phrases(greeting, "blessings"),
        thanks_praise=_phrases(greeting, "thanks_praise"),
        known_asks=_phrases(greeting, "known_asks"),
        more_asks=_phrases(greeting, "more_asks"),
        thanks_requests=_phrases(greeting, "thanks_requests"),
        crisis=_phrases(greeting, "crisis"),
        acknowledgements=frozenset(words_of(e) for e in entries(greeting, "acknowledgements")),
        acknowledgement_words=words_in(greeting, ("acknowledgements", "thanks_plan_lead")),
        thanks_contrasts=_single_words(greeting, ("thanks_contrasts",)),
        settling_tail_words=_single_words(greeting, ("settling_tail_words",)),
        remark_topics=_single_words(greeting, ("remark_topics",)),
        remark_words=_single_words(greeting, ("remark_words",)),
        remark_risks=_phrases(greeting, "remark_risks"),
        question_words=_single_words(greeting, ("question_words",)),
        greeting_emoji=frozenset(e for b in greeting.values() for e in b.lists.get("emoji", ())),
        greeting_followups=_single_words(greeting, ("followups",)),
    )


def _phrases(languages: Mapping[str, RuleSet], name: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\S)" + alternation(entries(languages, name)) + r"(?!\S)")


def _opener(languages: Mapping[str, RuleSet], name: str) -> re.Pattern[str]:
    return re.compile(alternation(entries(languages, name)) + r"(?!\S)")


def _single_words(languages: Mapping[str, RuleSet], names: Iterable[str]) -> frozenset[str]:
    return frozenset(
        w for block in languages.values() for n in names for e in block.lists.get(n, ())
        if " " not in (w := words_of(e))
    )  # fmt: skip


def _vocabulary(*detectors: Mapping[str, RuleSet]) -> set[str]:
    entries = [e for d in detectors for b in d.values() for v in b.lists.values() for e in v]
    entries += [e for d in detectors for b in d.values() for e in b.phrases]
    return {w for e in entries for w in words_of(e).split()}
