"""merge_hits and to_source: pure, table-driven."""

from __future__ import annotations

from typing import Any

import pytest

from pipelines.ports import SearchHit
from pipelines.retrieval import embedding_text, merge_hits, single_line, to_source, top_score


def hit(point: str, score: float, parent: str | None = None, **payload: Any) -> SearchHit:
    return SearchHit(point, score, {"parent_id": parent, **payload} if parent else payload)


# (case, core, personal, top_parents, expected point ids in order)
CASES: list[tuple[str, list[SearchHit], list[SearchHit], int, list[str]]] = [
    ("nothing found", [], [], 3, []),
    (
        "distinct parents, best three by score",
        [hit("a", 0.5, "A"), hit("b", 0.9, "B"), hit("c", 0.7, "C"), hit("d", 0.6, "D")],
        [],
        3,
        ["b", "c", "d"],
    ),
    (
        "a second child of a parent is skipped and the next parent moves up",
        [hit("a1", 0.9, "A"), hit("a2", 0.8, "A"), hit("b", 0.7, "B"), hit("c", 0.6, "C")],
        [],
        3,
        ["a1", "b", "c"],
    ),
    (
        "the user's own document ranks in by score",
        [hit("a", 0.9, "A"), hit("b", 0.5, "B"), hit("c", 0.4, "C")],
        [hit("t", 0.7, "T")],
        3,
        ["a", "t", "b"],
    ),
    (
        "personal hits of one parent collapse too",
        [hit("a", 0.5, "A")],
        [hit("t1", 0.8, "T"), hit("t2", 0.79, "T")],
        3,
        ["t1", "a"],
    ),
    (
        "equal scores: core before personal, then point id",
        [hit("z", 0.5, "Z"), hit("y", 0.5, "Y")],
        [hit("x", 0.5, "X")],
        3,
        ["y", "z", "x"],
    ),
    (
        "fewer parents than asked",
        [hit("a1", 0.9, "A"), hit("a2", 0.8, "A")],
        [],
        3,
        ["a1"],
    ),
    ("top one", [hit("a", 0.2, "A")], [hit("t", 0.3, "T")], 1, ["t"]),
    (
        "a hit without parent_id stands for itself",
        [hit("a", 0.9), hit("b", 0.8)],
        [],
        3,
        ["a", "b"],
    ),
    ("negative scores still rank", [hit("a", -0.1, "A"), hit("b", 0.1, "B")], [], 3, ["b", "a"]),
    ("zero parents asked", [hit("a", 0.9, "A")], [], 0, []),
]


@pytest.mark.parametrize(
    ("core", "personal", "top", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_merge_hits(
    core: list[SearchHit], personal: list[SearchHit], top: int, expected: list[str]
) -> None:
    merged = merge_hits(core, personal, top_parents=top)
    assert [h.id for h in merged] == expected
    parents = [h.payload.get("parent_id") or h.id for h in merged]
    assert len(parents) == len(set(parents))


def test_merge_does_not_depend_on_input_order() -> None:
    core = [hit("a", 0.3, "A"), hit("b", 0.9, "B"), hit("b2", 0.95, "B")]
    personal = [hit("t", 0.5, "T")]
    forward = merge_hits(core, personal, top_parents=3)
    backward = merge_hits(list(reversed(core)), personal, top_parents=3)
    assert [h.id for h in forward] == [h.id for h in backward] == ["b2", "t", "a"]


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("one  two\nthree\t four", 100, "one two three four"),
        ("  padded  ", 100, "padded"),
        ("abcdefghij", 10, "abcdefghij"),
        ("abcde fghijk", 8, "abcde f…"),
        ("", 10, ""),
    ],
)
def test_single_line(text: str, limit: int, expected: str) -> None:
    result = single_line(text, limit)
    assert result == expected and len(result) <= limit and "\n" not in result


def test_to_source_cites_the_child_on_one_line() -> None:
    found = hit(
        "p1-0",
        0.61234,
        "p1",
        text="First line\nsecond line",
        parent_text="The whole parent",
        source="guide.pdf",
        doc_id="docs/guide.pdf",
        page=4,
        is_temporary=False,
    )
    source = to_source(found, preview_chars=200)
    assert source.as_dict() == {
        "source": "guide.pdf",
        "page": 4,
        "parent_id": "p1",
        "preview": "First line second line",
        "score": 0.6123,
    }
    assert source.doc_id == "docs/guide.pdf" and source.extra == {"is_temporary": False}


@pytest.mark.parametrize(("page", "expected"), [(None, None), ("7", 7), ("x", None), (True, None)])
def test_to_source_page(page: object, expected: int | None) -> None:
    found = hit("a", 0.5, "A", parent_text="parent only", page=page, is_temporary=True)
    source = to_source(found, preview_chars=5)
    assert source.page == expected
    assert source.preview == "pare…" and source.source == "unknown"
    assert source.extra == {"is_temporary": True}


def test_top_score() -> None:
    assert top_score([]) == 0.0
    assert top_score([hit("a", 0.2), hit("b", 0.7)]) == 0.7


EMBEDDED = [
    ("English is embedded as it is", "how do I file an FIR?", " (First Information Report)",
     "how do I file an FIR? (First Information Report)"),
    ("Hindi without an expansion stays", "मकान मालिक", "", "मकान मालिक"),
    ("Hinglish is Latin script and stays", "kiraya nahi diya", " (rent)",
     "kiraya nahi diya (rent)"),
    ("Hindi words go once there is English", "मकान मालिक डिपॉजिट नहीं लौटा रहा",
     " (landlord; security deposit)", "(landlord; security deposit)"),
    ("Latin words and numbers in Hindi stay", "धारा 125 में CrPC क्या है", " (Section)",
     "125 CrPC (Section)"),
    ("vowel signs go with their word", "पति ने छोड़ दिया", " (husband)", "(husband)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("search_text", "expansion", "embedded"),
    [case[1:] for case in EMBEDDED],
    ids=[case[0] for case in EMBEDDED],
)
def test_embedding_text(search_text: str, expansion: str, embedded: str) -> None:
    assert embedding_text(search_text, expansion) == embedded
