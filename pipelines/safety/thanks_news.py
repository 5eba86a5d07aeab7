"""thanks_news: bad news told beside a thanks that reads like a win (pure).

"ty, my caste certificate got issued, with the wrong caste on it", "thank you, case khatam, wo
bari ho gaya kal", "धन्यवाद, खाता चालू हो गया, ... अब मैं ही आरोपी हूँ": a bag of n-grams reads
the thanks and the win and greets them; the small-talk head is vetoed (second_look.py).

A message is such news when one clause holds a verb of things won (`thanks_news_verbs`
anywhere: "refunded", "is over"; `thanks_news_weak` ("came", "got") at the clause's start or
just after the writer's own; in Hinglish and Hindi `thanks_news_ends` near the clause's end, or
`thanks_news_given` after who gave it, `thanks_news_givers`) and any clause names bad news
(`thanks_news_risks`: a thing gone to someone else, a scam, a bribe, the writer giving in) or
one names the other side (`thanks_news_others`) set free or winning (`thanks_news_freed`).
Phrases of `thanks_news_spared` ("without any bribe", "wrong bill") are cut out first.

Round 28 also tried the other way, greeting such news when nothing of the kind stood beside
it: a review found 118 dangers it greeted (papers "returned" meaning refused, scams
"credited", the other side's bail across two clauses), so good news stays a question unless
the closed rules (thanks_closure.py) read it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pipelines.safety.expand import alternation
from pipelines.safety.plan_words import entries
from pipelines.safety.ruleset import RuleSet
from pipelines.safety.trie import NEVER

NEWS_MAX_WORDS = 24  # a longer clause tells a story, not a result
NEWS_TAIL_WORDS = 3  # after a verb-final win: "mera naam sahi ho gaya [ration card mein]"
WEAK_OWNER_WORDS = 4  # "my" at most this close before "came", "started"
VERB_LAST = "verb last"
_NEVER = re.compile(NEVER)


@dataclass(frozen=True)
class NewsWords:
    verbs: re.Pattern[str] = _NEVER  # anywhere in the clause (English)
    ends: re.Pattern[str] = _NEVER  # near the clause's end (Hinglish, Hindi)
    weak: re.Pattern[str] = _NEVER  # only of the writer's own
    given: re.Pattern[str] = _NEVER  # only after who gave it
    givers: re.Pattern[str] = _NEVER
    owners: re.Pattern[str] = _NEVER  # "my", "our", "meri": the writer's own
    things: re.Pattern[str] = _NEVER  # what a writer wins: "deposit", "pension", "naam"
    open: re.Pattern[str] = _NEVER  # what leaves news open: "but", "only", "will", "nahi"
    risks: re.Pattern[str] = _NEVER
    others: re.Pattern[str] = _NEVER
    freed: re.Pattern[str] = _NEVER
    disputes: re.Pattern[str] = _NEVER  # a verb-last win's papers the closed grammar reads
    spared: re.Pattern[str] = _NEVER


def news_words(greeting: Mapping[str, RuleSet]) -> NewsWords:
    """The `thanks_news_*` lists of every greeting block, as phrase regexes."""
    names = ("verbs", "ends", "weak", "given", "givers", "owners", "things", "open", "risks",
             "others", "freed", "disputes", "spared")  # fmt: skip
    found = {name: entries(greeting, f"thanks_news_{name}") for name in names}
    return NewsWords(**{name: _phrases(listed) for name, listed in found.items() if listed})


def good_news(clause: str, news: NewsWords) -> bool:
    """One clause tells that a thing the writer wins came (a verb of things won and one of
    `thanks_news_things`: "the airline refunded my cancelled ticket", "builder ne flat ka
    possession de diya") with nothing that leaves it open, no bad news and no one of the other
    side set free; the caller also asks `bad_news` of the whole message."""
    if len(clause.split()) > NEWS_MAX_WORDS or not news.things.search(clause):
        return False
    won = _won(clause, news)
    said = _spared(clause, news)  # what is spared is cut out for the vetoes only
    if not won or (won == VERB_LAST and news.disputes.search(said)):
        return False  # "malik ki FIR darj ho gayi": the writer's own is thanks_plans.outcome's
    return not (news.open.search(said) or news.risks.search(said) or _freed(said, news))


def bad_news(clauses: tuple[str, ...], news: NewsWords) -> bool:
    """A verb of things won in one clause, and bad news in any, or the other side set free
    anywhere in the message ("the court granted bail, my husband came home")."""
    said = [_spared(clause, news) for clause in clauses]
    if not any(_won(clause, news) for clause in said):
        return False
    return any(news.risks.search(clause) for clause in said) or _freed(" , ".join(said), news)


def _spared(clause: str, news: NewsWords) -> str:
    return news.spared.sub(" ", clause) if news.spared.pattern != NEVER else clause


def _freed(said: str, news: NewsWords) -> bool:
    return bool(news.others.search(said) and news.freed.search(said))


def _won(said: str, news: NewsWords) -> str:
    """How a verb of things won is told: anywhere (`verbs`), a weak one ("came", "got") at the
    start or beside the writer's own, or near the end (`ends`, `given` after a giver:
    `VERB_LAST`); "" for none."""
    if news.verbs.search(said):
        return "verb"
    weak = news.weak.search(said)  # "got my passport", "my pension started"; not "he got my house"
    if weak and (weak.start() == 0 or _owned(said[: weak.start()].split(), news)):
        return "weak"
    ends = [found.end() for found in news.ends.finditer(said)]
    given = news.givers.search(said)
    if given:
        ends += [found.end() for found in news.given.finditer(said, given.end())]
    return VERB_LAST if any(len(said[end:].split()) <= NEWS_TAIL_WORDS for end in ends) else ""


def _owned(before: list[str], news: NewsWords) -> bool:
    """The writer's own is named just before a weak verb ("my [widow] pension started"), not
    far from it ("my brother in law listened to me and then started coming")."""
    near = " ".join(before[-WEAK_OWNER_WORDS:])
    return bool(near) and bool(news.owners.search(near))


def _phrases(listed: list[str]) -> re.Pattern[str]:
    """The entries as whole words, each also with a plural ("to the contractor[s] account")."""
    return re.compile(rf"(?<!\S)(?:{alternation(listed, plural=True)})(?!\S)")
