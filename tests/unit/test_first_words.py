"""first_words on its own reader (regex_tokens) gives what it gave on the standard library's
private parser: the snapshot holds that parser's results for every shipped word pattern and
for hand-written edge cases. Where the reader cannot tell, the answer is None (try the
pattern at every word): slower, never a missed match."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

import pipelines.safety.first_words as first_words_module
import pipelines.safety.regex_tokens as regex_tokens_module
from pipelines.safety.first_words import WholeText, exact_first_words, first_words

SNAPSHOT = json.loads(
    (Path(__file__).with_name("first_words_snapshot.json")).read_text(encoding="utf-8")
)
CASES = [
    pytest.param(pattern, expected, id=f"{section}-{index}")
    for section in ("shipped", "edge")
    for index, (pattern, expected) in enumerate(SNAPSHOT[section].items())
]


def _result(pattern: str) -> dict[str, list[str]] | None:
    found = first_words(pattern)
    if found is None:
        return None
    return {"exact": sorted(found.exact), "prefixes": sorted(found.prefixes)}


def test_the_snapshot_covers_the_shipped_rules_and_edge_cases() -> None:
    assert len(SNAPSHOT["shipped"]) >= 200 and len(SNAPSHOT["edge"]) >= 40


@pytest.mark.filterwarnings("ignore:Possible:FutureWarning")  # [[ and && in classes
@pytest.mark.parametrize(("pattern", "expected"), CASES)
def test_same_first_words_as_the_standard_parser(pattern: str, expected: Any) -> None:
    assert _result(pattern) == expected


@pytest.mark.parametrize("pattern", list(SNAPSHOT["wider"]))
def test_where_the_reader_gives_up_the_pattern_is_tried_everywhere(pattern: str) -> None:
    assert first_words(pattern) is None


NONE_FALLBACKS = [
    ("\\w+ you", "starts with a class"),
    (".*idiot", "starts with any character"),
    ("[a-z]+ you", "a class too wide to list"),
    ("[^x]y", "a negated class"),
    ("(?:a|\\w)b", "one alternative starts unknown"),
    ("(?:you )?\\d+", "the optional word may be absent"),
    ("(?>ab)c", "an atomic group"),
    ("(a)?(?(1)b|c)", "a conditional group"),
    ("(?!)a", "never matches"),
    ("x?", "may match nothing"),
    ("(?:ab)*", "may match nothing"),
    ("$", "an anchor only"),
    ("[a-h]" * 7, "too many words to list"),
    ("(?x) a b", "verbose flag: not read"),
    ("(?x: a) b", "scoped verbose flag: not read"),
    ("(?<=ab|c)x", "variable-width look-behind: re.compile refuses it"),
    ("(?:" * 400 + "a" + ")" * 400, "nested too deep"),
    ("(unclosed", "invalid"),
    ("a)", "invalid"),
    ("[abc", "invalid"),
    ("*a", "invalid: nothing to repeat"),
    ("a**", "invalid: multiple repeat"),
    ("a{3,1}", "invalid: min over max"),
    ("[z-a]", "invalid range"),
    ("\\q", "invalid escape"),
    ("\\x4", "incomplete escape"),
    ("(?P=nope)a", "unknown group name"),
    ("a(?i)b", "global flags not at the start"),
    ("\\1a", "a reference to no group"),
]


@pytest.mark.parametrize(("pattern", "why"), NONE_FALLBACKS, ids=[w for _, w in NONE_FALLBACKS])
def test_none_fallbacks(pattern: str, why: str) -> None:
    assert first_words(pattern) is None, why


@pytest.mark.parametrize(
    ("pattern", "exact", "prefixes"),
    [
        ("(?:a|b|c|d|e|f|g|h) x", set("abcdefgh"), set()),  # 8 letters: still listed
        ("x(?:a|b|c|d|e|f|g|h|i)", set(), {"x"}),  # 9 merge into one class: too wide
        ("x(?:a|b|c|d|e|f|g|h|i|jk)", {f"x{c}" for c in "abcdefghi"} | {"xjk"}, set()),
        ("(?i)idiot", {"idiot"}, set()),  # flags do not change the words
        ("\\bgo\\b", {"go"}, set()),
        ("a(?:b(?:c)?)? d", {"a", "ab", "abc"}, set()),
        ("ha{1,5} x", {"ha", "haa", "haaa"}, {"haaa"}),
        ("(?:no|yes)\\S*", {"no", "yes"}, {"no", "yes"}),
    ],
)
def test_first_words_examples(pattern: str, exact: set[str], prefixes: set[str]) -> None:
    found = first_words(pattern)
    assert found is not None
    assert (found.exact, found.prefixes) == (exact, prefixes)


@pytest.mark.parametrize("module", [first_words_module, regex_tokens_module])
def test_no_private_module_is_imported(module: Any) -> None:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    private = [n for n in names if n != "__future__" and any(p[0] == "_" for p in n.split("."))]
    assert private == []


@pytest.mark.parametrize(
    ("pattern", "starts"),
    [
        ("(?:ok )*(?:hi|hello there)(?: |$)", frozenset({"ok", "hi", "hello"})),
        ("(?:no|yes)\\S*", None),  # prefixes: not a finite set of words
        ("\\w+ you", None),
    ],
)
def test_exact_first_words(pattern: str, starts: frozenset[str] | None) -> None:
    assert exact_first_words(pattern) == starts


@pytest.mark.parametrize(
    ("text", "matches"),
    [
        ("hi", True),
        ("ok ok hello there", True),
        ("hello", False),  # starts right, the regex says no
        ("well hi", False),  # turned away by the first word
        ("", False),
    ],
)
def test_whole_text_gate_agrees_with_the_regex(text: str, matches: bool) -> None:
    regex = re.compile("(?:ok )*(?:hi|hello there)")
    gated = WholeText.of(regex)
    assert gated.starts == frozenset({"ok", "hi", "hello"})
    assert gated.fullmatch(text) is matches is (regex.fullmatch(text) is not None)


def test_an_unknown_first_word_is_never_turned_away() -> None:
    gated = WholeText.of(re.compile("\\w+ there"))
    assert gated.starts is None and gated.fullmatch("hello there")
