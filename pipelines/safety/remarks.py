"""remarks: a remark about the writer's day made of everyday words, no problem named (pure).

"winter in shimla is beautiful, snow everywhere", "just cooked maggi at 2am, college life",
"bursting crackers with my cousins tonight, diwali vibes": small talk the message models score
low, because most statements they were shown were problems or comments. A remark counts when
it names a topic of `remark_topics` (weather, food, cricket, films, festivals, travel, a
tiring day) and holds at most `REMARK_OTHER_WORDS` words outside those and `remark_words`,
and it has no "?", no question or asking word, no thanks (thanks_closure.py reads those), no
plan, no word to the reader (the message models read those), no long number, no profanity or
insult, and names no legal matter, harm, request for help, risk or crisis: "no food since
yesterday", "stuck at the bus stand tonight with my kids" and "are firecrackers allowed on
diwali" are no remarks.
"""

from __future__ import annotations

import re

from pipelines.safety.distress import names_crisis
from pipelines.safety.learned import holds_insult
from pipelines.safety.matters import asks_for_help, names_legal_matter
from pipelines.safety.normalize import Prepared
from pipelines.safety.rules import SafetyRules
from pipelines.safety.thanks_plans import names_risk

REMARK_MIN_WORDS = 2
REMARK_MAX_WORDS = 20
REMARK_OTHER_WORDS = 2  # "mumbai rains are back, [local] trains full as usual": names, places
CHOICE_JOINS = frozenset({"or", "vs", "versus"})
CHOICE_ASKS = frozenset({"which", "who"})  # "which is better", after a choice only
_LONG_NUMBER = re.compile(r"\d{5}")  # a phone or an account: no remark
# going without for days ("tea and biscuits for 3 days now"; a review)
_SO_LONG = re.compile(
    r"\b(?:for|since) (?:\d+|two|three|four|five|many) (?:days?|weeks?|months?)\b"
)


def chitchat_remark(text: str, prepared: Prepared, rules: SafetyRules) -> bool:
    compiled = rules.compiled
    words = prepared.words.split()
    choice = _choice(words, rules)  # "dhoni or kohli, who is better?" may ask
    if ("?" in text and not choice) or not REMARK_MIN_WORDS <= len(words) <= REMARK_MAX_WORDS:
        return False
    said = set(words)
    topics = said & compiled.remark_topics
    others = said - compiled.remark_topics - compiled.remark_words
    if not topics or len([w for w in others if not w.isdigit()]) > REMARK_OTHER_WORDS:
        return False
    asks = compiled.question_words - (CHOICE_ASKS if choice else frozenset())
    return not (
        (words[0] in compiled.asking_words and not choice)  # "are firecrackers allowed on diwali"
        or not said.isdisjoint(asks | compiled.thanks_words)
        or not said.isdisjoint(compiled.addressed_words | compiled.profanity_words)
        or any(compiled.thanks_plan_opening.match(clause) for clause in prepared.clauses)
        or _LONG_NUMBER.search(text)
        or _SO_LONG.search(prepared.words)
        or names_risk(words, rules, compounds=False)
        or compiled.remark_risks.search(prepared.words)
        or names_crisis(prepared, rules)
        or names_legal_matter(prepared, rules)
        or asks_for_help(prepared, rules)
        or any(holds_insult(clause, rules) for clause in prepared.clauses)
    )


def _choice(words: list[str], rules: SafetyRules) -> bool:
    """A choice between two things named ("biryani or pulao", "csk vs mi"): the words on both
    sides of an "or" are no joining words (the rest of the remark's tests still apply)."""
    joining = rules.compiled.remark_words
    return any(
        word in CHOICE_JOINS and words[i - 1] not in joining and words[i + 1] not in joining
        for i, word in enumerate(words[1:-1], start=1)
    )
