"""thanks_plans: what a thanks may close on, the writer's plan or a matter settled since (pure).

"thanks, will send the notice on monday", "shukriya, kal thane jaungi", "my father got bail last
night"; not "thanks, will pay the bribe the clerk asked for" or "he got bail and now sits outside
our gate" (pipelines/safety/thanks_closure.py asks these).
"""

from __future__ import annotations

import re

from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules

# a plan's clause holds at most this many words after its verb, all of them words of a plan
# ("I'll draft the RTI application tonight and post it tomorrow"); a longer one tells more
PLAN_MAX_WORDS = 12
# a plan that hands nothing over may name other words too, up to this many, none of them a risk
# ("I will go to the sub registrar office on friday with the sale deed and the encumbrance
# certificate"; not "will go to the terrace tonight")
OPEN_PLAN_MAX_WORDS = 20
# ... of which at most this many are outside `thanks_plan_words` (numbers of up to
# `OPEN_PLAN_NUMBER_DIGITS` digits not counted): a risk list cannot foresee every danger ("will
# accompany the contractor to the sugarcane fields next week"; a second review)
OPEN_PLAN_OTHER_WORDS = 1
# a number beside them is a count ("3 copies", "at 10"), not an amount
OPEN_PLAN_NUMBER_DIGITS = 2
AMOUNT = re.compile(r"\d+(?:k|l|lac|lakh|cr)")  # "50k", "2l"
# the place a plan goes to is its first word after these, within this many
DETERMINERS = frozenset({"the", "my", "our", "a", "an"})
PLACE_WORDS = 3
# a number of at most this many digits, after `thanks_plan_number_leads` ("form 16", "call
# 1930", "within 30 days"), is a word of a plan; "will give 5000 tonight" names an amount
SHORT_NUMBER_DIGITS = 4
# a step the writer took opens its clause after at most this many words ("we have finally
# [went]")
STEP_VERB_WORDS = 4
# what was won may be told with this many words outside the plan words ("my mothers pension has
# restarted after we submitted the [jeevan pramaan] at the bank")
WON_OTHER_WORDS = 2
# a matter settled since ends its clause but for this many `thanks_outcome_tails` ("my brother
# got bail last night"); "he got bail and now sits outside our gate" goes on to news
OUTCOME_TAIL_WORDS = 4


def outcome(clause: str, rules: SafetyRules) -> bool:
    """The clause ends on a matter settled since ("the landlord returned my deposit today",
    "bhai ki bail ho gayi aaj"), followed by at most `OUTCOME_TAIL_WORDS` of the
    `thanks_outcome_tails` (times, "with interest", "in full"), not counting thanks words;
    or it tells what the writer won since (`won`). Neither names a `thanks_won_risks`, nor a
    risk before the outcome ("my husband got bail last night")."""
    compiled = rules.compiled
    if compiled.thanks_won_risks.search(clause):  # "my rapist's bail was granted"
        return False
    if won(clause, rules):
        return True
    for found in compiled.thanks_outcomes.finditer(clause):
        rest = clause[found.end() :].split()
        tail = [word for word in rest if word not in compiled.thanks_words]  # "... dhanyawad"
        before = clause[: found.start()].split()  # "my [husband] got bail last night"
        if (
            len(tail) <= OUTCOME_TAIL_WORDS
            and compiled.thanks_outcome_tails.issuperset(tail)
            and not names_risk(before, rules)
        ):
            return True
    return False


def won(clause: str, rules: SafetyRules) -> bool:
    """The writer's own thing won since (`thanks_won`: "my mothers pension has restarted after
    we submitted the form"), and around it at most `WON_OTHER_WORDS`
    words outside `thanks_plan_words`, no amount and no risk but its verb ("paid"): "the court
    granted my husband bail", "the agent returned my passport after i paid him" or "my claim
    was settled for only 2000" are no such news (`outcome` reads `thanks_won_risks` first)."""
    compiled = rules.compiled
    found = compiled.thanks_won.search(clause)
    if found is None:
        return False
    verb = next(value for value in found.groupdict().values() if value is not None)
    if any(risk != verb for risk in risks_named(clause.split(), rules)):  # not "paid" itself
        return False
    if any(_foreign(word, rules) for word in clause.split()):
        return False  # an amount: "after i gave the clerk 2000", "settled for only 2000"
    rest = (clause[: found.start()] + " " + clause[found.end() :]).split()
    listed = compiled.thanks_plan_words | compiled.thanks_done_verbs | compiled.thanks_outcome_tails
    listed |= compiled.thanks_words  # "... after we [submitted] the form. thanks"
    return len([w for w in rest if w not in listed and not w.isdigit()]) <= WON_OTHER_WORDS


def plans(clause: str, rules: SafetyRules, strict: bool = False) -> bool:
    """A first person's future ("kal thane jaungi", "शिकायत दर्ज करवाऊँगी"), or a clause that
    opens with a plan ("I'll draft the RTI tonight", "will send the notice on monday", "going to
    the sub registrar office with the sale deed") that names no risk: "will pay the bribe the
    clerk asked for" is no plan (`planned`; `strict`: only the closed words)."""
    if _future(clause, rules):
        return not names_risk(clause.split(), rules)  # "kal uske saath hotel jaungi"
    return planned(clause, rules, strict)


def _future(clause: str, rules: SafetyRules) -> bool:
    """A word in a first person's future ("jaungi", "जाऊँगी")."""
    endings = rules.compiled.thanks_plan_endings
    return bool(endings) and any(word.endswith(endings) for word in clause.split())


def risky_future(prepared: Prepared, rules: SafetyRules) -> bool:
    """A clause in the writer's future, or under way, that names a risk ("ok, kal uske saath
    hotel jaungi", "dhanyavaad, kal paise de dungi", "आज रात अकेले उससे मिलने जा रही हूँ"): the
    small-talk head reads it as a closing."""
    under_way = rules.compiled.thanks_plan_under_way
    return any(
        (_future(c, rules) or under_way.search(c)) and names_risk(c.split(), rules)
        for c in prepared.clauses
    )


def planned(clause: str, rules: SafetyRules, strict: bool = False) -> bool:
    """A clause that opens with a plan and names none of `thanks_plan_risks`: made only of
    `thanks_plan_words` (at most `PLAN_MAX_WORDS` after its verb), or, unless its verb hands
    something over ("give"), of at most `OPEN_PLAN_MAX_WORDS` with at most
    `OPEN_PLAN_OTHER_WORDS` outside that list, no amount and no Hinglish word (`_foreign`).
    With `strict` (what vetoes the small-talk head), only the closed words, and no risk."""
    compiled = rules.compiled
    plan = compiled.thanks_plans.match(clause)
    if plan is None:  # "tomorrow first thing i will go": before it, only words of a plan
        plan = compiled.thanks_plan_inner.search(clause)
        if plan is None or not compiled.thanks_plan_prefix.issuperset(
            clause[: plan.start()].split()
        ):
            return False
    rest = compiled.thanks_as_advised.sub(" ", clause[plan.end() :]).split()
    verb = clause[: plan.end()].split()[-1]
    return _acts_on_advice(verb, rest, clause[: plan.end()], rules, strict)


def _acts_on_advice(
    verb: str, rest: list[str], opening: str, rules: SafetyRules, strict: bool = False
) -> bool:
    """What follows a plan's or a step's verb: of `thanks_plan_words` only, or, unless the verb
    hands something over, at most one other word; no risk, no amount, no Hinglish word."""
    compiled = rules.compiled
    before = [verb, *rest]  # each word's predecessor
    words = [w for w, lead in zip(rest, before, strict=False) if not _counted(w, lead, rules)]
    others = [word for word in words if word not in compiled.thanks_plan_words]
    if not _place_listed(rest, opening, rules):
        return False
    if strict:  # "will go to the lodge tonight": closed words, but a risk
        return not others and len(rest) <= PLAN_MAX_WORDS and not names_risk(rest, rules, False)
    handover = verb in compiled.thanks_plan_handovers  # "will do the transfer to ..."
    if names_risk(rest, rules, compounds=not handover):  # "will give the report card to ..."
        return False
    spared = compiled.thanks_plan_safe.search(" ".join(rest)) is not None  # "return memo"
    if spared:  # its own words may be unlisted; the rest is closed
        outside = set(compiled.thanks_plan_safe.sub(" ", " ".join(rest)).split())
        others = [word for word in others if word in outside]
    if handover or spared:  # "will visit the branch manager at the farmhouse tonight"
        return not others and len(rest) <= PLAN_MAX_WORDS
    unlisted = [word for word in others if not word.isdigit()]
    return (
        len(rest) <= OPEN_PLAN_MAX_WORDS
        and len(unlisted) <= OPEN_PLAN_OTHER_WORDS
        and not any(_foreign(word, rules) for word in others)
    )


def names_risk(words: list[str], rules: SafetyRules, compounds: bool = True) -> bool:
    """One of `thanks_plan_risks`; with `compounds`, outside the compounds that only look like
    one (`thanks_plan_safe`: "warranty card", "cheque bounce notice", "bank manager"), which a
    handover does not spare ("will give the warranty card to the dealer")."""
    return bool(risks_named(words, rules, compounds))


def risks_named(words: list[str], rules: SafetyRules, compounds: bool = True) -> list[str]:
    """The `thanks_plan_risks` the words name (`names_risk`), in order."""
    compiled = rules.compiled
    said = " ".join(words)
    if compounds:
        said = compiled.thanks_plan_safe.sub(" ", said)
    return [found.group() for found in compiled.thanks_plan_risks.finditer(said)]


def _place_listed(rest: list[str], opening: str, rules: SafetyRules) -> bool:
    """Where a plan goes is a word of a plan: "going to [the] tehsil", "going to [apply]",
    "will go to the [dlsa]"; not "going to sleep in the car", "will go to the canal tonight"
    or "going to the jungle" (a review)."""
    compiled = rules.compiled
    if compiled.thanks_plan_moves.search(opening):
        place = rest
    elif rest[:1] == ["to"]:
        place = rest[1:]
    else:
        return True
    named = [word for word in place[:PLACE_WORDS] if word not in DETERMINERS]
    return bool(named) and named[0] in compiled.thanks_plan_words


def _foreign(word: str, rules: SafetyRules) -> bool:
    """An amount ("5000", "50k") or a Hinglish word ("pati ghar pe hai"): no open plan's
    word."""
    if word.isdigit():
        return len(word) > OPEN_PLAN_NUMBER_DIGITS
    return AMOUNT.fullmatch(word) is not None or word in rules.compiled.not_english


def _counted(word: str, lead: str, rules: SafetyRules) -> bool:
    """A short number after a word that counts it ("form 16", "call 1930", "within 30 days");
    "will give 5000 tomorrow" names an amount."""
    return (
        word.isdigit()
        and len(word) <= SHORT_NUMBER_DIGITS
        and lead in rules.compiled.thanks_plan_number_leads
    )


def untold_plan(prepared: Prepared, rules: SafetyRules) -> bool:
    """A clause that opens with the writer's future but is no plan of acting on the advice
    ("thanks, will use the pesticide tonight", "will pay the ransom by tonight"), or with a step
    the writer took that is not one of the closed words ("thanks, met the sho in the lodge
    tonight"): the small-talk head, which reads "thanks, will ..." as a closing, must not greet
    it. Only a plan of the closed words counts here: an open plan is the rule's to judge, with
    its risks ("thanks, will go to the canal tonight" scored as small talk; two reviews)."""
    opening = rules.compiled.thanks_plan_opening
    return any(
        (opening.match(c) and not plans(c, rules, strict=True)) or _untold_step(c, rules)
        for c in prepared.clauses
    )


def _untold_step(clause: str, rules: SafetyRules) -> bool:
    """The clause opens with a step the writer took (`thanks_done_verbs`: "went", "submitted")
    and goes on with words outside `thanks_plan_words` ("went up to the overbridge")."""
    compiled = rules.compiled
    words = clause.split()
    for index, verb in enumerate(words[:STEP_VERB_WORDS]):
        if verb in compiled.thanks_done_verbs:
            opens = compiled.thanks_done_leads.issuperset(words[:index])
            return opens and not _acts_on_advice(verb, words[index + 1 :], "", rules, strict=True)
    return False
