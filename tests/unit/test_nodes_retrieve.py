"""retrieve node: masking, expansion, one embedding, one dual search, merged parents."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from pipelines.metering import metering
from pipelines.nodes.retrieve import PII_UNAVAILABLE, RETRIEVAL_UNAVAILABLE, retrieve
from pipelines.ports import DualSearchResult, Message, PiiSpan
from pipelines.ports.sparse import SparseVector, encode_query, term_id, tokens
from pipelines.romanised import QueryWords
from pipelines.safety.placeholders import PlaceholderVault
from pipelines.state import Retrieval
from tests.fakes.vector_index import FakeVectorIndex
from tests.unit._pipeline_kit import (
    CORE_DOCS,
    NOW,
    OTHER_USER,
    USER,
    Kit,
    kit_config,
    question_state,
    runtime,
    seed_temporary,
    seeded_kit,
    texts_seen,
)

EMAIL = "asha.rao@example.org"
DEPOSIT_Q = "When must a landlord return the security deposit?"


async def test_the_question_is_masked_before_it_is_embedded() -> None:
    kit = await seeded_kit()
    query = f"How do I file an FIR? Write to {EMAIL}, I am Asha Rao"
    update = await retrieve(question_state(query), runtime(kit.deps(spy=True)))
    assert set(update) == {"retrieval"}
    found = update["retrieval"]
    assert isinstance(found, Retrieval)
    assert found.safe_query == "How do I file an FIR? Write to <EMAIL_ADDRESS_1>, I am <PERSON_1>"
    assert found.pii_found is True
    assert found.pii_entities == ("EMAIL_ADDRESS", "PERSON")
    assert isinstance(found.vault, PlaceholderVault)
    seen = texts_seen(kit)
    assert EMAIL not in seen and "Asha Rao" not in seen
    assert "(First Information Report)" in kit.spies["embed"].seen[0]  # expansion appended
    # what was embedded is recorded, so `generate` never recomputes it
    assert found.search_text == "How do I file an FIR? Write to , I am"
    assert found.expansion == " (First Information Report)"
    assert repr(found.search_text + found.expansion) in kit.spies["embed"].seen[0]


async def test_one_embedding_and_one_search() -> None:
    kit = await seeded_kit()
    with metering() as calls:
        update = await retrieve(question_state(DEPOSIT_Q), runtime(kit.deps()))
    assert calls.as_dict() == {"llm": 0, "embed": 1, "vector": 1, "store": 0}
    assert update["retrieval"].query_vector == tuple(kit.embedder.embed_sync(DEPOSIT_Q))


async def test_top_three_distinct_parents_with_their_parent_texts() -> None:
    kit = await seeded_kit()
    found = (await retrieve(question_state(DEPOSIT_Q), runtime(kit.deps())))["retrieval"]
    sources = found.sources
    assert 1 <= len(sources) <= 3
    assert len({s.parent_id for s in sources}) == len(sources)
    assert sources[0].parent_id == "p-deposit" and sources[0].source == "deposit.md"
    assert [s.score for s in sources] == sorted((s.score for s in sources), reverse=True)
    assert found.context[0].startswith("A landlord must return the security deposit")
    assert len(found.context) == len(sources)
    assert found.confidence == round(sources[0].score * 100, 1)
    assert found.pii_found is False and found.pii_entities == ()
    assert found.error is None


async def test_the_users_own_upload_ranks_in_and_anothers_never_does() -> None:
    kit = await seeded_kit()
    mine = "My lease says the landlord keeps the security deposit for two months."
    theirs = "The Zebra lease says the landlord keeps the security deposit for two months."
    await seed_temporary(kit.index, kit.embedder, user_id=USER, doc_id="lease", text=mine)
    await seed_temporary(kit.index, kit.embedder, user_id=OTHER_USER, doc_id="zebra", text=theirs)
    query = "What does my lease say about the security deposit?"
    found = (await retrieve(question_state(query), runtime(kit.deps())))["retrieval"]
    parents = [s.parent_id for s in found.sources]
    assert "p-lease" in parents and "p-zebra" not in parents
    assert all("Zebra" not in text for text in found.context)


async def test_an_expired_upload_is_not_found() -> None:
    kit = await seeded_kit()
    text = "My lease says the landlord keeps the security deposit for two months."
    await seed_temporary(
        kit.index,
        kit.embedder,
        user_id=USER,
        doc_id="old",
        text=text,
        expires_at=NOW - timedelta(minutes=1),
    )
    found = (await retrieve(question_state(text), runtime(kit.deps())))["retrieval"]
    assert "p-old" not in [s.parent_id for s in found.sources]


async def test_history_window_is_the_last_messages_masked_with_the_same_placeholders() -> None:
    kit = await seeded_kit()
    history = [Message("user", f"old {n}") for n in range(8)] + [
        Message("user", f"my mail is {EMAIL}"),
        Message("assistant", "Noted, Asha Rao."),
    ]
    update = await retrieve(
        question_state(f"Did you send it to {EMAIL}?", history=history), runtime(kit.deps())
    )
    found = update["retrieval"]
    masked = found.masked_history
    assert isinstance(masked, tuple) and len(masked) == 6
    assert [m.content for m in masked[:4]] == ["old 4", "old 5", "old 6", "old 7"]
    assert masked[4].content == "my mail is <EMAIL_ADDRESS_1>"
    assert masked[5] == Message("assistant", "Noted, <PERSON_1>.")
    assert found.safe_query == "Did you send it to <EMAIL_ADDRESS_1>?"


async def test_the_users_name_is_masked_even_when_the_detector_misses_it() -> None:
    kit = await seeded_kit()
    state = question_state("I am meera  IYER and need bail", name="Meera Iyer")
    found = (await retrieve(state, runtime(kit.deps())))["retrieval"]
    assert found.safe_query == "I am <PERSON_1> and need bail"
    # the vault restores the value as first registered: the name from the token
    assert found.vault.restore(found.safe_query) == "I am Meera Iyer and need bail"


async def test_allowlisted_corpus_terms_stay_unmasked() -> None:
    kit = await seeded_kit()
    kit.with_config(allowlist=frozenset({"John Smith"}))
    update = await retrieve(
        question_state("What did John Smith rule? I am Asha Rao"), runtime(kit.deps())
    )
    found = update["retrieval"]
    assert found.safe_query == "What did John Smith rule? I am <PERSON_1>"
    assert found.pii_entities == ("PERSON",)


async def test_an_empty_index_gives_zero_confidence_and_no_sources() -> None:
    kit = Kit()
    found = (await retrieve(question_state(DEPOSIT_Q), runtime(kit.deps())))["retrieval"]
    assert found.sources == () and found.context == () and found.confidence == 0.0
    assert found.error is None  # nothing found is not a failure


class BrokenDetector:
    async def detect(self, text: str) -> list[PiiSpan]:
        raise RuntimeError("presidio down")


async def test_a_failing_detector_fails_closed_before_anything_leaves() -> None:
    kit = await seeded_kit(detector=BrokenDetector())
    with metering() as calls:
        update = await retrieve(question_state(f"mail {EMAIL}"), runtime(kit.deps(spy=True)))
    found = update["retrieval"]
    assert found.error == PII_UNAVAILABLE and found.sources == ()
    assert found.safe_query == "" and found.query_vector == () and found.masked_history == ()
    assert calls.embed == 0 and calls.vector == 0 and texts_seen(kit) == ""


class DownIndex:
    async def dual_search(self, *args: object, **kwargs: object) -> None:
        raise ConnectionError("qdrant down")


async def test_a_failing_index_degrades_instead_of_raising() -> None:
    kit = await seeded_kit()
    kit.index = DownIndex()  # type: ignore[assignment]
    found = (await retrieve(question_state(DEPOSIT_Q), runtime(kit.deps())))["retrieval"]
    assert found.error == RETRIEVAL_UNAVAILABLE
    assert found.sources == () and found.confidence == 0.0
    assert found.safe_query == DEPOSIT_Q


async def test_each_parent_comes_with_the_texts_of_its_children_that_were_hit() -> None:
    kit = await seeded_kit()
    found = (await retrieve(question_state("How do I get bail?"), runtime(kit.deps())))["retrieval"]
    matched = found.matched_children
    assert len(matched) == len(found.context) and found.sources[0].parent_id == "p-bail"
    bail = [text for _, parent, texts in CORE_DOCS if parent == "p-bail" for text in texts]
    assert sorted(matched[0]) == sorted(bail) and len(matched[0]) == 2
    for context, texts in zip(found.context, matched, strict=True):
        assert texts and all(text in context for text in texts)
    hits = await kit.index.dual_search(found.query_vector, user_id=USER, now=NOW)
    scores = {hit.payload["text"]: hit.score for hit in hits.core}
    assert [scores[t] for t in matched[0]] == sorted((scores[t] for t in matched[0]), reverse=True)


async def test_nothing_found_means_no_matched_children() -> None:
    kit = await seeded_kit()
    kit.index = DownIndex()  # type: ignore[assignment]
    update = await retrieve(question_state(DEPOSIT_Q), runtime(kit.deps()))
    assert update["retrieval"].matched_children == ()


class SparseRecorder(FakeVectorIndex):
    """Keeps the sparse query of every search (term ids: a string search cannot see them)."""

    def __init__(self) -> None:
        super().__init__()
        self.sparse_seen: list[SparseVector | None] = []

    async def dual_search(self, vector: Sequence[float], **kwargs: Any) -> DualSearchResult:
        self.sparse_seen.append(kwargs.get("sparse"))
        return await super().dual_search(vector, **kwargs)


async def test_the_sparse_query_holds_only_terms_of_the_masked_text() -> None:
    """The hashed terms sent to the index come from the masked, expanded question (SPEC 6.3)."""
    index = SparseRecorder()
    kit = await seeded_kit(index=index)
    query = f"How do I file an FIR? Write to {EMAIL}, I am Asha Rao"
    found = (await retrieve(question_state(query), runtime(kit.deps())))["retrieval"]
    searched = found.search_text + found.expansion
    [sent] = index.sparse_seen
    assert sent == encode_query(searched)
    raw = {term_id(t) for t in tokens(f"{EMAIL} Asha Rao")} - {term_id(t) for t in tokens(searched)}
    assert raw and raw.isdisjoint(sent.indices if sent else ())


async def test_hindi_words_are_not_embedded_once_the_keyword_map_gave_english() -> None:
    """MiniLM reads Devanagari letter by letter: with an expansion, the embedder gets the
    question's other words and the expansion; the sparse search still gets everything."""
    index = SparseRecorder()
    kit = await seeded_kit(index=index)
    query = "एफआईआर कैसे लिखवाएं, FIR"
    found = (await retrieve(question_state(query), runtime(kit.deps(spy=True))))["retrieval"]
    assert found.expansion == " (First Information Report)"
    [embedded] = kit.spies["embed"].seen
    assert repr(", FIR (First Information Report)") in embedded
    assert "कैसे" not in embedded
    [sent] = index.sparse_seen
    assert sent == encode_query(query + found.expansion)


async def test_hindi_without_an_expansion_is_embedded_as_it_is() -> None:
    kit = await seeded_kit()
    query = "मकान मालिक जमा राशि नहीं लौटा रहा"
    await retrieve(question_state(query), runtime(kit.deps(spy=True)))
    assert repr(query) in kit.spies["embed"].seen[0]


async def test_romanised_hindi_is_embedded_as_its_english_words() -> None:
    """With the query words configured, the node embeds only the English of a romanised Hindi
    question once the keyword map gave English; the sparse search still gets everything."""
    index = SparseRecorder()
    words = QueryWords.of(["kaise", "hai"], [], ["police", "complaint"], {})
    kit = await seeded_kit(index=index, config=kit_config(query_words=words))
    query = "FIR kaise likhwate hai, police complaint"
    found = (await retrieve(question_state(query), runtime(kit.deps(spy=True))))["retrieval"]
    [embedded] = kit.spies["embed"].seen
    assert repr("FIR , police complaint (First Information Report)") in embedded
    [sent] = index.sparse_seen
    assert sent == encode_query(query + found.expansion)


async def test_a_romanised_question_is_masked_before_its_english_is_embedded() -> None:
    """The romanised-Hindi path (readable words, glosses) reads the masked question only."""
    words = QueryWords.of(["kaise", "hai"], [], ["police", "write"], {}, {"kaise": "how"})
    kit = await seeded_kit(config=kit_config(query_words=words))
    query = f"FIR kaise likhwate hai police ko, write to {EMAIL}, I am Asha Rao"
    await retrieve(question_state(query), runtime(kit.deps(spy=True)))
    seen = texts_seen(kit)
    assert EMAIL not in seen and "Asha Rao" not in seen
    [embedded] = kit.spies["embed"].seen
    assert repr("FIR how police , write , (First Information Report)") in embedded
