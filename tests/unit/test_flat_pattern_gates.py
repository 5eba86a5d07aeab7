"""The gates that let a flat pattern be skipped never skip a match.

required_literals is checked on a table of patterns, then for soundness: every string
hypothesis generates from a pattern holds one of its literals (and a non-ASCII character
where the gate says so). FlatPatterns must find exactly what searching every pattern finds,
on the shipped patterns and on every message and document text in the repository's data.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.safety.flat_patterns import GATE_LITERALS, FlatPatterns
from pipelines.safety.matcher import RuleMatcher
from pipelines.safety.required_literals import Gate, required_literals
from pipelines.safety.spelling import Fold
from tests.unit._safety_rules import shipped_rules

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    # pattern, literals, needs non-ASCII
    ("abc", {"abc"}, False),
    (r"\bignore\s+previous", {"previous"}, False),
    ("(?:user|human):", {"user", "human"}, False),
    ("a(?:b|c)d", {"a"}, False),  # the shared first letter moves out, then each is one letter
    ("x?yz", {"yz"}, False),
    ("(?:ab)+cd", {"ab"}, False),
    ("(?:ab)*c", {"c"}, False),
    ("[:=]", {":", "="}, False),
    ("[a-z]+", None, False),  # a wide class: nothing known
    ("foo|\\w+", None, False),  # one alternative without literals: nothing known
    ("(?i)ignore", None, False),  # ignores case: never gated
    ("(?i:ignore) rules", None, False),  # a group that ignores case anywhere: never gated
    ("अब\\s+तुम", {"तुम"}, True),
    ("忽略|无视", {"忽略", "无视"}, True),
    ("ai|एआई", {"ai", "एआई"}, False),
    ("(?:a|b|c|d|e|f|g|h)x", {"x"}, False),
    (
        "|".join(f"{chr(97 + i)}{i}y" for i in range(10)),
        None,
        False,
    ),  # more alternatives than are worth it
    ("(?<=x)yz", {"yz"}, False),
    (r"(a)\1", {"a"}, False),
]


@pytest.mark.parametrize(("pattern", "literals", "non_ascii"), CASES)
def test_required_literals(pattern: str, literals: set[str] | None, non_ascii: bool) -> None:
    gate = required_literals(pattern)
    assert gate.literals == (None if literals is None else frozenset(literals))
    assert gate.non_ascii is non_ascii


def test_a_caller_that_scans_all_literals_at_once_may_gate_longer_alternations() -> None:
    pattern = "|".join(f"{chr(97 + i)}{i}y" for i in range(10))
    assert required_literals(pattern).literals is None
    assert required_literals(pattern, most=10).literals == {f"{chr(97 + i)}{i}y" for i in range(10)}


def test_every_shipped_flat_pattern_is_gated() -> None:
    """An ungated pattern is searched in every message (one language list of 40 alternatives
    once cost ~30 us a message)."""
    compiled = shipped_rules().compiled
    for matcher in (compiled.indirect, compiled.document):
        assert not matcher.flat.ungated, [matcher.names[i] for i in matcher.flat.ungated]


def test_a_flag_passed_in_turns_gating_off() -> None:
    assert required_literals("ignore", re.IGNORECASE) == Gate()


@lru_cache(maxsize=1)
def shipped_flat() -> list[re.Pattern[str]]:
    compiled = shipped_rules().compiled
    return compiled.indirect.flat.patterns + compiled.document.flat.patterns


def _sound(pattern: str, flags: int, text: str) -> None:
    if not re.search(pattern, text, flags):
        return  # from_regex may generate around lookarounds it cannot honour
    gate = required_literals(pattern, flags, most=GATE_LITERALS)  # as FlatPatterns gates
    assert gate.admits(text), (pattern, text, gate)


@pytest.mark.parametrize("pattern", [case[0] for case in CASES])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_generated_match_is_admitted(pattern: str, data: st.DataObject) -> None:
    _sound(pattern, 0, data.draw(st.from_regex(pattern)))


@pytest.mark.parametrize("index", range(len(shipped_flat())))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_match_of_a_shipped_pattern_is_admitted(index: int, data: st.DataObject) -> None:
    pattern = shipped_flat()[index]
    text = data.draw(st.from_regex(re.compile(pattern.pattern, pattern.flags)))
    _sound(pattern.pattern, pattern.flags, text)


def _texts() -> list[str]:
    subset = json.loads((ROOT / "bench/datasets/small_subset.json").read_text(encoding="utf-8"))
    texts = [item["text"] for item in subset["items"]]
    for path in sorted((ROOT / "bench/datasets/own").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts += [v for v in json.loads(line).values() if isinstance(v, str)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "sample_kb").rglob("*.md"))]
    return texts


def test_gated_search_finds_what_searching_everything_finds() -> None:
    rules = shipped_rules()
    texts = _texts()
    assert len(texts) > 1000
    forms = [form for text in texts for form in (text, rules.compiled.prepare(text).flat)]
    hits = 0
    for matcher in (rules.compiled.indirect.flat, rules.compiled.document.flat):
        for form in forms:
            expected = [i for i, p in enumerate(matcher.patterns) if p.search(form)]
            assert matcher.matching(form) == expected, form[:200]
            hits += bool(expected)
    assert hits > 50  # the data holds matches, so the comparison means something


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ab ai", [0, 1]),  # "ai" and "air" share a start: both are found
        ("xairx", [0, 1]),
        ("nothing", []),
        ("अब तुम", [2]),
        ("ab", []),
    ],
)
def test_overlapping_literals_are_all_found(text: str, expected: list[int]) -> None:
    patterns = FlatPatterns([re.compile(p) for p in ("ai", "air?", "अब", "[0-9]+x")])
    assert patterns.matching(text) == expected


@pytest.mark.parametrize(
    ("patterns", "skips"),
    [
        (["अब तुम", "पागल"], True),
        (["अब तुम", "pagal"], False),
        (["अब|ab"], False),
        ([], False),
    ],
)
def test_a_word_pack_in_another_script_skips_ascii_text(patterns: list[str], skips: bool) -> None:
    matcher = RuleMatcher([(f"r{i}", p) for i, p in enumerate(patterns)], words=True)
    assert matcher.skips_ascii is skips


def test_skipping_ascii_text_loses_no_word_match() -> None:
    """Each shipped word pack's patterns that need a non-ASCII character, as one matcher that
    skips ASCII text (a pack may also hold ASCII ones: "bsdk" in the Hindi pack)."""
    rules = shipped_rules()
    compiled = rules.compiled
    packs = [compiled.abuse, compiled.abuse_bare, compiled.injection]
    packs += [m for g in compiled.abuse_folded for m in (g.abuse, g.abuse_bare)]
    matchers = []
    for pack in packs:
        named = [
            (name, pattern.pattern)
            for name, pattern in zip(pack.names, pack.patterns, strict=True)
            if required_literals(pattern.pattern).non_ascii
        ]
        if named:
            matchers.append(RuleMatcher(named, words=True))
    assert matchers and all(m.skips_ascii for m in matchers)
    found = 0
    for text in _texts()[:3000]:
        words = compiled.prepare(text).words
        for matcher in matchers:
            trying_all = copy.copy(matcher)
            trying_all.skips_ascii = False
            assert matcher.all(words) == trying_all.all(words), text[:200]
            found += bool(trying_all.all(words))
    assert found > 5  # the texts hold Devanagari matches, so the comparison means something


def _every_step(fold: Fold, text: str) -> str:
    for pattern, replacement in fold.steps:
        text = pattern.sub(replacement, text)
    return text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aehinoqwyzpk ितकि\u094d", max_size=40))
def test_a_fold_skips_only_steps_that_cannot_change_the_text(text: str) -> None:
    folds = {group.fold for group in shipped_rules().compiled.abuse_folded}
    assert folds
    for fold in folds:
        assert fold(text) == _every_step(fold, text)


def test_a_fold_remembers_a_bounded_number_of_texts() -> None:
    fold = next(group.fold for group in shipped_rules().compiled.abuse_folded)
    first = fold("kuttey tu chup reh")
    assert fold("kuttey tu chup reh") == first == _every_step(fold, "kuttey tu chup reh")
    for n in range(5000):
        assert fold(f"bhaiyaa {n}") == _every_step(fold, f"bhaiyaa {n}")
    assert 0 < len(fold._memo) <= 2048
    long_text = "bhaiyaa " * 100
    assert fold(long_text) == _every_step(fold, long_text) and long_text not in fold._memo
