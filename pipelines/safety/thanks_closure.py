"""thanks_closure: a thanks that closes the conversation (pure).

"thank you, I finally understand my rights", "shukriya, kal thane jaungi", "thanks, will send
the notice on monday" close; "thanks, the police will not register it" or "thanks. what
documents do I need" state or ask something new and stay questions.
"""

from __future__ import annotations

import re

from pipelines.safety.distress import names_harm
from pipelines.safety.greeting import greeting_clause
from pipelines.safety.learned import holds_insult
from pipelines.safety.matters import names_legal_matter
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.thanks_asks import asks_beside_thanks
from pipelines.safety.thanks_news import bad_news, good_news, spared_cut
from pipelines.safety.thanks_plans import names_risk, outcome, planned, plans

# a clause is part of the thanks for its thanks word only when it is this short ("thank you so
# much madam"); a longer one must close on its own: "thanks for the answer my father in law
# touches me" is news (a review of round 20)
THANKS_CLAUSE_WORDS = 6
# a resolution, closing or praise after a contrast settles the worry only at the clause's end,
# but for one word ("but now i feel better now"); "but now we know she is pregnant" is news
SETTLING_TAIL_WORDS = 1
SETTLING_PLAN_TAIL_WORDS = 3  # "but now i understand [the bail process]"
SETTLING_LEAD_WORDS = 2  # "but [your answer] gave me confidence"
# a closing phrase speaks for its clause only after at most this many words naming no risk
# ("the loan app people are very patient and ...": what comes before was never read), and,
# unless it praises the answer, before at most this many that are no plan ("all good man in
# white car waits outside our gate"; round 26, two reviews)
PHRASE_LEAD_WORDS = 10
PHRASE_TAIL_WORDS = 6


def thanks_closure(text: str, prepared: Prepared, rules: SafetyRules, words: int) -> bool:
    """A thanks that closes the conversation ("thank you, I finally understand my rights",
    "shukriya, kal thane jaungi"): a thanks word, a blessing, or an acknowledgement before a
    plan of the closed words ("noted sir, i will collect my rent receipts"); every clause part
    of the thanks (a thanks, closing, blessing, praise, resolution or plan: "god bless you, my
    husband sold the house" is a new problem); no "?", no question word outside what is now
    known ("now I know what to do"), no negation outside a thanks idiom ("can't thank you
    enough"), no word that turns it into a request ("but", "because", "lekin", "चाहिए") and
    no harm ("maara"); a legal matter ("bail", "thana") only when a resolution, a plan or
    praise settles it ("got bail", "kal thane jaungi", "thanks for explaining the bail")."""
    compiled = rules.compiled
    if "?" in text or words > rules.message_thresholds.social_max_words:
        return False
    said = compiled.thanks_idioms.sub(" ", prepared.words)
    thanked = not compiled.thanks_words.isdisjoint(prepared.words.split())
    if not (thanked or compiled.blessings.search(said) or _acknowledged_plan(prepared, rules)):
        return False
    if any(_asks_first(clause, rules) for clause in prepared.clauses):
        return False
    if not all(_closes(clause, rules) for clause in prepared.clauses):
        return False
    if _thanks_asks(prepared, rules):
        return False
    if names_harm(prepared, rules):  # "thanks, god bless, they hit my mother again"
        return False
    if bad_news(prepared.clauses, compiled.thanks_news):  # "... bail, my husband came home"
        return False
    if any(holds_insult(clause, rules) for clause in prepared.clauses):
        return False  # an insult word is never small talk
    # a legal matter needs a resolution, a plan or praise ("thanks for explaining the bail
    # process"); every clause being part of the thanks keeps "the warrant came today" out
    settled = bool(
        compiled.thanks_resolutions.search(said)
        or compiled.thanks_praise.search(said)
        or any(_told(clause, rules) for clause in prepared.clauses)
    )
    if not settled and names_legal_matter(prepared, rules):  # "thanks, summon aaya hai"
        return False
    closing = compiled.thanks_closings.search(said) or compiled.blessings.search(said)
    return settled or bool(closing) or said != prepared.words  # or a thanks idiom


def _told(clause: str, rules: SafetyRules) -> bool:
    """A plan, a matter settled since, or a thing won (thanks_news.py)."""
    news = rules.compiled.thanks_news
    return plans(clause, rules) or outcome(clause, rules) or good_news(clause, news)


def _acknowledged_plan(prepared: Prepared, rules: SafetyRules) -> bool:
    """An acknowledgement, then a plan of the closed words or a matter settled: "noted sir, i
    will collect all my rent receipts", "ok got it, will call the helpline tomorrow"; not "ok
    noted, will take my passport to the employer" (a review)."""
    first, *rest = prepared.clauses or [""]
    words = first.split()
    plan = rest[0] if rest else ""
    if not rest:  # "ok got it will call the helpline": the plan after the acknowledgement
        lead = _acknowledgement_lead(words, rules)
        words, plan = words[:lead], " ".join(words[lead:])
    return (
        bool(words)
        and rules.compiled.acknowledgement_words.issuperset(words)
        and (planned(plan, rules, strict=True) or outcome(plan, rules))
    )


def _acknowledgement_lead(words: list[str], rules: SafetyRules) -> int:
    """How many words open the clause as an acknowledgement ("ok got it")."""
    known = rules.compiled.acknowledgement_words
    return next((i for i, word in enumerate(words) if word not in known), len(words))


def _thanks_asks(prepared: Prepared, rules: SafetyRules) -> bool:
    """Beside a thanks: a question word outside what is now known, a word that turns it into
    a request ("i also need", "but") or a negation outside a thanks idiom ("the police will
    not register it"): a new matter, not the thanks."""
    if asks_beside_thanks(prepared, rules):
        return True
    compiled = rules.compiled
    said = compiled.thanks_idioms.sub(" ", prepared.words)
    if compiled.thanks_negations.search(said):
        return True
    turns = " ".join(
        _without_resolved_contrast(_news_told(c, rules), rules) for c in prepared.clauses
    )
    return bool(compiled.thanks_turns.search(compiled.thanks_idioms.sub(" ", turns)))


def _news_told(clause: str, rules: SafetyRules) -> str:
    """A clause that tells a thing won, without the phrases the news rule spares: "pension phir
    se shuru ho gayi" (resumed) and "cleared my pending dues" turn nothing, as "phir se" (again)
    and "pending" would."""
    news = rules.compiled.thanks_news
    return spared_cut(clause, news) if good_news(clause, news) else clause


def _without_resolved_contrast(clause: str, rules: SafetyRules) -> str:
    """The clause without a "but" whose rest settles the worry (`_settles`: "i was so scared but
    now i know my rights", "dar lag raha tha lekin ab samajh aa gaya"): the worry is over, not a
    new turn. "thanks but now it is worse" keeps its "but"."""
    words = clause.split()
    for index, word in enumerate(words):
        if word in rules.compiled.thanks_contrasts and _settles(words[index + 1 :], rules):
            return " ".join(words[:index] + words[index + 1 :])
    return clause


def _settles(words: list[str], rules: SafetyRules) -> bool:
    """What follows a contrast settles the worry: a plan that opens it, or a resolution,
    closing or praise that is nearly all of it (`SETTLING_LEAD_WORDS` before,
    `SETTLING_TAIL_WORDS` after: "but now i know my rights", "but your answer gave me
    confidence"). News is not: "but now i know he has a second wife", "lekin mera pati kehta
    hai bachon ko le jaunga", "but my husband took the kids away will update you", and no
    outcome ("but my husband got bail today"; two reviews)."""
    compiled = rules.compiled
    rest = " ".join(words)
    if planned(rest, rules):
        return True
    settling = (compiled.thanks_resolutions, compiled.thanks_closings, compiled.thanks_praise)
    return any(
        len(rest[: found.start()].split()) <= SETTLING_LEAD_WORDS
        and _settling_tail(rest[found.end() :].split(), rules)
        for pattern in settling
        for found in pattern.finditer(rest)
    )


def _settling_tail(tail: list[str], rules: SafetyRules) -> bool:
    """What may follow a settling phrase: a word, or a few `settling_tail_words` naming no risk
    ("now i understand [the process]"; not "now i know [he has a second wife]")."""
    compiled = rules.compiled
    return len(tail) <= SETTLING_TAIL_WORDS or (
        len(tail) <= SETTLING_PLAN_TAIL_WORDS
        and compiled.settling_tail_words.issuperset(tail)
        and not names_risk(tail, rules)
    )


def _closes(clause: str, rules: SafetyRules) -> bool:
    """The clause is part of the thanks: an acknowledgement ("noted", "ok sir noted"), an
    outcome at its end ("my father got bail today"), a short thanks, a plan, or a thanks,
    closing, blessing, praise, resolution or thanks idiom whose rest names no risk
    (`_phrase_closes`)."""
    compiled = rules.compiled
    # what was explained or understood follows these: "for explaining [the process]", "i
    # understood [the whole process of filing the complaint]"
    topical = (compiled.thanks_praise, compiled.thanks_idioms, compiled.thanks_resolutions)
    return (
        clause in compiled.acknowledgements
        or compiled.acknowledgement_words.issuperset(clause.split())  # "ok sir noted"
        or (
            len(clause.split()) <= THANKS_CLAUSE_WORDS
            and not compiled.thanks_words.isdisjoint(clause.split())
        )
        or _told(clause, rules)
        or greeting_clause(clause, rules)  # "thank you so much for the guidance"
        or any(
            _phrase_closes(clause, found, rules, topic=pattern in topical)
            for pattern in (
                compiled.thanks_closings,
                compiled.blessings,
                compiled.thanks_praise,
                compiled.thanks_resolutions,
                compiled.thanks_idioms,
            )
            for found in pattern.finditer(clause)
        )
    )


def _phrase_closes(
    clause: str, found: re.Match[str], rules: SafetyRules, *, topic: bool = False
) -> bool:
    """A closing phrase closes its clause when at most `PHRASE_LEAD_WORDS` naming none of
    `thanks_plan_risks` come before it, and what follows it is a word at most, a plan, or up to
    `PHRASE_TAIL_WORDS` naming no risk ("now i understand what a zero fir is"); after praise
    of the answer, a thanks idiom or a resolution (`topic`), any number naming no risk: what
    was explained or understood ("thanks for explaining the consumer court process step by
    step"). News is not: "all set
    to move back in with my husband on sunday", "relieved that the dai will do the abortion at
    home" (a third review), "my in laws are so supportive and they have started giving me some
    tablets every night", "great work contractor kept three months of our wages"."""
    lead = clause[: found.start()].split()
    if len(lead) > PHRASE_LEAD_WORDS or names_risk(lead, rules):
        return False
    tail = clause[found.end() :].split()
    rest = " ".join(tail)
    if len(tail) <= SETTLING_TAIL_WORDS or planned(rest, rules) or planned(f"i {rest}", rules):
        return True
    return (topic or len(tail) <= PHRASE_TAIL_WORDS) and not names_risk(tail, rules)


def _asks_first(clause: str, rules: SafetyRules) -> bool:
    """The clause opens with an asking word ("will it work", "can i") and not with a plan
    ("will send the notice on monday")."""
    words = clause.split()
    return bool(words) and words[0] in rules.compiled.asking_words and not plans(clause, rules)
