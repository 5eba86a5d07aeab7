"""thanks_news: good news told beside a thanks (pure).

"thank u, the airline refunded my cancelled ticket finally", "shukriya, builder ne flat ka
possession de diya", "धन्यवाद, पीएफ का पैसा खाते में आ गया": the writer's matter came out in
their favour and nothing is left open. The thing won is open (any words); what is closed is the
verb that says it came, and what may not stand beside it. A clause is such news when it
- holds a verb of things won (`thanks_news_verbs`: "refunded", "gave me", "is over"), or in
  Hinglish and Hindi ends on one, but for `NEWS_TAIL_WORDS` ("case jeet gaye hum");
- says "came", "got", "started" (`thanks_news_weak`) only of the writer's own ("my pension
  started", "got my passport"): "the summons came", "he got the house" are no win;
- says who gave it for a giving verb (`thanks_news_given` after `thanks_news_givers`: "builder
  ne ... de diya"), so "maine paise de diye" (the writer paid) is none;
- names nothing that leaves it open (`thanks_news_open`: a contrast, negation, future,
  condition, demand, fear, or a part only: "kept 5000", "aadha"), no bad news that reads like a
  win (`thanks_news_risks`: a complaint sent back, a case closed, a prize, the writer giving in:
  "i paid", "i agreed"), and no one who may be the other side set free (`thanks_news_others`
  with `thanks_news_freed`: "the court granted my husband bail", "wo jail se chhut gaya").
Phrases in `thanks_news_spared` ("without any bribe", "wanted to let you know") are cut out
first. The whole message must still be a thanks that asks nothing (thanks_closure.py).
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
    open: re.Pattern[str] = _NEVER
    risks: re.Pattern[str] = _NEVER
    others: re.Pattern[str] = _NEVER
    freed: re.Pattern[str] = _NEVER
    disputes: re.Pattern[str] = _NEVER  # a verb-final win's papers the closed grammar reads
    spared: re.Pattern[str] = _NEVER


def news_words(greeting: Mapping[str, RuleSet]) -> NewsWords:
    """The `thanks_news_*` lists of every greeting block, as phrase regexes."""
    names = ("verbs", "ends", "weak", "given", "givers", "owners", "open", "risks", "others",
             "freed", "disputes", "spared")  # fmt: skip
    found = {name: entries(greeting, f"thanks_news_{name}") for name in names}
    return NewsWords(**{name: _phrases(listed) for name, listed in found.items() if listed})


def good_news(clause: str, news: NewsWords) -> bool:
    """Whether one clause (word form) tells that the writer's matter came out in their favour,
    with nothing left open (see the module's docstring)."""
    said = news.spared.sub(" ", clause) if news.spared.pattern != NEVER else clause
    words = said.split()
    if not words or len(words) > NEWS_MAX_WORDS:
        return False
    won = _won(said, news)
    if not won or (won == VERB_LAST and news.disputes.search(said)):
        return False
    if news.open.search(said) or news.risks.search(said):
        return False
    return not (news.others.search(said) and news.freed.search(said))


def bad_news(clauses: tuple[str, ...], news: NewsWords) -> bool:
    """A verb of things won in one clause, and bad news in any (`thanks_news_risks`: "my caste
    certificate got issued, with the wrong caste on it") or the other side set free in one ("wo
    bari ho gaya"): the small-talk head must not read the message as a closing."""
    said = [news.spared.sub(" ", c) if news.spared.pattern != NEVER else c for c in clauses]
    if not any(_won(clause, news) for clause in said):
        return False
    return any(
        news.risks.search(clause) or (news.others.search(clause) and news.freed.search(clause))
        for clause in said
    )


def _won(said: str, news: NewsWords) -> str:
    """How a verb of things won is told: anywhere (`verbs`), a weak one ("came", "got") beside
    the writer's own thing, or near the end (`ends`, `given` after a giver: `VERB_LAST`); "" for
    none."""
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
