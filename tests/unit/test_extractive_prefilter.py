"""Pre-selection of the sentences worth embedding: stems, BM25 over sentences, child bonus."""

from __future__ import annotations

import pytest

from pipelines.extractive_prefilter import inside, lexical_scores, preselect, stem, terms


@pytest.mark.parametrize(
    ("words", "same"),
    [
        (["file", "filed", "filing", "files"], True),
        (["offence", "offences"], True),
        (["register", "registered", "registering"], True),
        (["party", "parties"], True),
        (["bail", "jail"], False),
    ],
)
def test_stem_folds_simple_inflections(words: list[str], same: bool) -> None:
    assert (len({stem(w) for w in words}) == 1) is same


def test_terms_drop_stopwords_and_punctuation() -> None:
    assert terms("What is the FEE for an RTI application?") == ["fee", "rti", "application"]


def test_rare_query_terms_outscore_common_ones() -> None:
    sentences = [
        "The police record the complaint in writing.",
        "The police may refuse bail for a serious offence.",
        "The police station keeps a register.",
    ]
    scores = lexical_scores("can the police refuse bail", sentences)
    assert scores.index(max(scores)) == 1
    assert lexical_scores("", sentences) == [0.0, 0.0, 0.0]


def test_expansion_terms_count_less_than_the_question_s_own() -> None:
    sentences = ["An appeal goes to the first appellate authority.", "The officer answers it."]
    plain = lexical_scores("appeal", sentences, expansion="officer")
    assert plain[0] > plain[1] > 0
    even = lexical_scores("appeal", sentences, expansion="officer", expansion_weight=1.0)
    assert even[1] > plain[1]


def test_a_sentence_cut_by_a_child_edge_still_counts_as_inside() -> None:
    sentence = "The magistrate can order the police to register the complaint and investigate it."
    child = "earlier text ends here. the magistrate can order the police to register the"
    assert inside(sentence, child)
    assert not inside(sentence, "nothing of the sort")


SENTENCES = [
    "Bail is the release of an accused person until trial.",  # 0: lexical match
    "The court fixes the amount of the bond.",
    "A surety promises the court the accused will attend.",
    "Rent is usually paid every month in advance.",
    "A landlord must return the security deposit within a month.",  # 4: in the matched child
]
CITATIONS = [1, 1, 1, 2, 2]


def test_keeps_the_best_candidates_in_their_original_order() -> None:
    kept = preselect(SENTENCES, CITATIONS, "what is bail", [[], []], limit=2)
    assert len(kept) == 2 and kept == sorted(kept) and 0 in kept


def test_a_sentence_inside_a_matched_child_gets_a_bonus() -> None:
    matched = [[], ["A landlord must return the security deposit within a month. Rent is"]]
    without = preselect(SENTENCES, CITATIONS, "bail", [[], []], limit=1)
    with_child = preselect(SENTENCES, CITATIONS, "bail", matched, limit=2)
    assert without == [0] and with_child == [0, 4]


def test_a_child_only_counts_for_its_own_passage() -> None:
    child = ["A landlord must return the security deposit within a month."]
    assert 4 not in preselect(SENTENCES, CITATIONS, "bail", [child, []], limit=2)


def test_few_sentences_are_all_kept_and_a_zero_limit_keeps_none() -> None:
    assert preselect(SENTENCES, CITATIONS, "bail", [], limit=10) == [0, 1, 2, 3, 4]
    assert preselect(SENTENCES, CITATIONS, "bail", [], limit=0) == []


def test_without_any_signal_the_first_sentences_are_kept() -> None:
    assert preselect(SENTENCES, CITATIONS, "", [], limit=3) == [0, 1, 2]
