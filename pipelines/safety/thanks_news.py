"""thanks_news: a thing won, told beside a thanks (pure).

`good_news`: one clause tells that a thing the writer wins came ("thank u, the airline refunded
my cancelled ticket", "shukriya, builder ne flat ka possession de diya", "धन्यवाद, पीएफ का पैसा
खाते में आ गया"): a thing of `thanks_news_things` and a verb that says it came
(`thanks_news_verbs` anywhere; `thanks_news_weak`, "came", "got", at the clause's start or just
after the writer's own thing; in Hinglish and Hindi `thanks_news_ends` near the clause's end, or
`thanks_news_given` after who gave it, `thanks_news_givers`), at most `NEWS_MAX_WORDS`, no
digit (an amount, an age), nothing that leaves it open (`thanks_news_open`: a contrast, a
part, a future, "after", "with", "to": what it came with or went to), no `thanks_news_risks`,
no one else named (`thanks_news_others`: "court ne pati ka passport lauta diya") and, told
verb-last, no dispute's paper (`thanks_news_disputes`: the closed grammar of
thanks_plans.py reads the writer's own FIR or claim).

`bad_news`: a verb of things won in one clause, and in any clause bad news (a risk, or someone
else who got the writer's thing: "my boss got my passport"), or the other side set free
anywhere (`thanks_news_others` with `thanks_news_freed`: "the court granted bail, my husband
came home"). Neither a thanks closure nor the small-talk head greets it.

Phrases of `thanks_news_spared` ("without any bribe", "after the notice", a benefit resumed:
"pension phir se") are cut out before the vetoes are read, and, in a clause of good news,
before thanks_closure.py reads its turns. Three reviews shaped this (development files v38r,
v39r, v40r): an open version greeted papers "returned" meaning refused, scams "credited", and
things given to someone else; the lists stay closed, so a qualifier they lack ("a quarter of my
deposit") still passes.
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
    leads: re.Pattern[str] = _NEVER  # what may stand before "got my ...": "i", "finally"
    things: re.Pattern[str] = _NEVER  # what a writer wins: "deposit", "pension", "naam"
    open: re.Pattern[str] = _NEVER  # what leaves news open: "but", "only", "will", "nahi"
    risks: re.Pattern[str] = _NEVER
    others: re.Pattern[str] = _NEVER
    freed: re.Pattern[str] = _NEVER
    disputes: re.Pattern[str] = _NEVER  # a verb-last win's papers the closed grammar reads
    spared: re.Pattern[str] = _NEVER


def news_words(greeting: Mapping[str, RuleSet]) -> NewsWords:
    """The `thanks_news_*` lists of every greeting block, as phrase regexes."""
    names = ("verbs", "ends", "weak", "given", "givers", "owners", "leads", "things", "open",
             "risks", "others", "freed", "disputes", "spared")  # fmt: skip
    found = {name: entries(greeting, f"thanks_news_{name}") for name in names}
    return NewsWords(**{name: _phrases(listed) for name, listed in found.items() if listed})


def good_news(clause: str, news: NewsWords) -> bool:
    """One clause tells that a thing the writer wins came (a verb of things won and one of
    `thanks_news_things`: "the airline refunded my cancelled ticket", "builder ne flat ka
    possession de diya") with no digit, nothing that leaves it open, no bad news and no one
    else named; the caller also asks `bad_news` of the whole message."""
    if len(clause.split()) > NEWS_MAX_WORDS or not news.things.search(clause):
        return False
    won = _won(clause, news)
    said = spared_cut(clause, news)  # what is spared is cut out for the vetoes only
    if not won or (won == VERB_LAST and news.disputes.search(said)):
        return False  # "malik ki FIR darj ho gayi": the writer's own is thanks_plans.outcome's
    if any(character.isdigit() for character in said):  # an amount, an age, a distance
        return False
    # anyone else named (not only set free): "court ne pati ka passport lauta diya"
    return not (news.open.search(said) or news.risks.search(said) or news.others.search(said))


def bad_news(clauses: tuple[str, ...], news: NewsWords) -> bool:
    """A verb of things won in one clause, and bad news in any, or the other side set free
    anywhere in the message ("the court granted bail, my husband came home")."""
    said = [spared_cut(clause, news) for clause in clauses]  # "by registered post" is no win
    if not any(_won(clause, news) for clause in said):
        return False
    if any(news.risks.search(clause) or _taken(clause, news) for clause in said):
        return True
    return _freed(" , ".join(said), news)


def _taken(clause: str, news: NewsWords) -> bool:
    """Someone else got the writer's thing: "my boss got my passport", "our sarpanch got our
    ration card" (a weak verb before "my", after anyone but the writer)."""
    for weak in news.weak.finditer(clause):
        before = clause[: weak.start()].split()
        after = clause[weak.end() :].split()
        if (
            before
            and after
            and news.owners.fullmatch(after[0])
            and not news.leads.fullmatch(before[-1])
            and not _owned(before, news)
        ):
            return True
    return False


def spared_cut(clause: str, news: NewsWords) -> str:
    """The clause without its `thanks_news_spared` phrases ("without any bribe", "पेंशन फिर से")."""
    return news.spared.sub(" ", clause)


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
    """The writer's own thing just before a weak verb ("my [widow] pension started"): an owner
    at most `WEAK_OWNER_WORDS` before it, and between them a thing won and no one else ("my
    husband got my salary", "my brother in law ... started coming" are not)."""
    near = before[-WEAK_OWNER_WORDS:]
    owned = [i for i, word in enumerate(near) if news.owners.fullmatch(word)]
    if not owned:
        return False
    between = " ".join(near[owned[-1] + 1 :])
    return bool(news.things.search(between)) and not news.others.search(between)


def _phrases(listed: list[str]) -> re.Pattern[str]:
    """The entries as whole words, each also with a plural ("to the contractor[s] account")."""
    return re.compile(rf"(?<!\S)(?:{alternation(listed, plural=True)})(?!\S)")
