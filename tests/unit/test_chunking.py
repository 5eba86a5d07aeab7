"""Parent/child splitting: sizes, boundaries, overlap, coverage and stable ids."""

from __future__ import annotations

import random
import re

import pytest

from ingestion.chunking import Child, ChunkSizes, split_children, split_document, split_parents
from ingestion.loaders import LoadedPage

SIZES = ChunkSizes()
_VOCABULARY = (
    "the court may grant bail to an accused person after hearing the public prosecutor and "
    "considering facts of case tenant landlord deposit notice consumer commission complaint"
)
_WORDS = _VOCABULARY.split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 18))]
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, chars: int) -> str:
    sentences: list[str] = []
    while sum(len(s) + 1 for s in sentences) < chars:
        sentences.append(sentence(rng))
    return " ".join(sentences)


def markdown(seed: int = 7, sections: int = 9) -> str:
    rng = random.Random(seed)
    parts = ["# A guide to everything"]
    for i in range(sections):
        parts.append(f"## Section {i} heading")
        parts += [paragraph(rng, rng.randint(80, 700)) for _ in range(rng.randint(1, 3))]
    return "\n\n".join(parts)


def parents_of(children: list[Child]) -> dict[str, str]:
    return {c.parent_id: c.parent_text for c in children}


def overlap(a: str, b: str) -> int:
    return next((k for k in range(min(len(a), len(b)), 0, -1) if a.endswith(b[:k])), 0)


def test_short_document_is_one_parent_and_one_child() -> None:
    [child] = split_document("a.md", [LoadedPage("# Bail\n\nBail is release.", None)])
    assert child.text == child.parent_text == "# Bail\n\nBail is release."
    assert child.page is None


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_parents_are_whole_sections_of_the_right_size(seed: int) -> None:
    text = markdown(seed)
    parents = split_parents("doc.md", [LoadedPage(text, None)])
    assert len(parents) > 1
    for parent in parents[:-1]:
        assert SIZES.parent_min * 0.6 <= len(parent.text) <= SIZES.parent_max + 60
        assert not parent.text.rstrip().splitlines()[-1].startswith("#")  # no orphan heading
    assert len(parents[-1].text) <= SIZES.parent_max * 1.25
    blocks = [b for b in text.split("\n\n")]
    joined = "\n\n".join(p.text for p in parents)
    assert joined == "\n\n".join(blocks)  # nothing lost, nothing repeated, order kept


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_children_are_word_aligned_windows_with_overlap(seed: int) -> None:
    children = split_document("doc.md", [LoadedPage(markdown(seed), None)])
    for parent_id, parent_text in parents_of(children).items():
        own = [c for c in children if c.parent_id == parent_id]
        position = 0
        for i, child in enumerate(own):
            start = parent_text.index(child.text, max(position - 200, 0))
            end = start + len(child.text)
            assert start == 0 or parent_text[start - 1].isspace(), "starts mid-word"
            assert end == len(parent_text) or parent_text[end].isspace() or child.text[-1] in ".!?"
            if i < len(own) - 1:
                assert SIZES.child_min * 0.75 <= len(child.text) <= SIZES.child_max
                assert 40 <= overlap(child.text, own[i + 1].text) <= 90
            position = end
        assert own[0].text.startswith(parent_text[:20])
        assert own[-1].text.endswith(parent_text[-20:])


def test_children_prefer_sentence_ends() -> None:
    text = " ".join(sentence(random.Random(i)) for i in range(60))
    pieces = split_children(text)
    assert len(pieces) > 5
    assert all(p.endswith(".") for p in pieces)


def test_long_unbroken_text_is_cut_into_bounded_parents() -> None:
    text = paragraph(random.Random(5), 7000)  # one paragraph, no headings
    parents = split_parents("long.txt", [LoadedPage(text, None)])
    assert len(parents) >= 4
    assert all(len(p.text) <= SIZES.parent_max for p in parents)
    assert " ".join(p.text for p in parents) == text


def test_a_giant_token_still_terminates() -> None:
    children = split_document("x.txt", [LoadedPage("a" * 5000, None)])
    assert "".join(c.text for c in children).count("a") >= 5000
    assert all(len(c.text) <= SIZES.child_max for c in children)


def test_pdf_pages_start_new_parents_and_keep_their_numbers() -> None:
    rng = random.Random(9)
    pages = [LoadedPage(paragraph(rng, 1600), n) for n in (1, 2, 3)]
    parents = split_parents("scan.pdf", pages)
    assert [p.page for p in parents] == [1, 2, 3]
    children = split_document("scan.pdf", pages)
    assert {c.page for c in children} == {1, 2, 3}


def test_tiny_sections_are_merged() -> None:
    text = "\n\n".join(f"## Term {i}\n\nShort definition number {i}." for i in range(12))
    parents = split_parents("glossary.md", [LoadedPage(text, None)])
    assert len(parents) == 1


def test_ids_are_stable_and_depend_on_doc_and_text() -> None:
    pages = [LoadedPage(markdown(3), None)]
    first, again = split_document("a.md", pages), split_document("a.md", pages)
    assert [c.id for c in first] == [c.id for c in again]
    assert len({c.id for c in first}) == len(first)
    other = split_document("b.md", pages)
    assert not {c.id for c in first} & {c.id for c in other}
    assert not {c.parent_id for c in first} & {c.parent_id for c in other}


def test_editing_the_end_keeps_the_first_parent_id() -> None:
    text = markdown(4)
    edited = text + "\n\nOne more closing paragraph that was added later."
    before = split_parents("a.md", [LoadedPage(text, None)])
    after = split_parents("a.md", [LoadedPage(edited, None)])
    assert before[0].id == after[0].id
    assert before[-1].id != after[-1].id


def test_headings_are_recognised_in_plain_text() -> None:
    rng = random.Random(2)
    body = "\n\n".join(f"WHAT TO DO {i}\n\n{paragraph(rng, 900)}" for i in range(4))
    parents = split_parents("plain.txt", [LoadedPage(body, None)])
    assert all(re.match(r"WHAT TO DO \d", p.text) for p in parents)
