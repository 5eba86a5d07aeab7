"""Romanised Hindi questions: which Latin words are embedded (pipelines/romanised.py), with a
table of made-up lists and with the shipped ones (service/config/query_words.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.retrieval import embedding_text
from pipelines.romanised import QueryWords
from service.pipeline_config import ConfigFileError, query_words

WORDS = QueryWords.of(
    markers=["kya", "hai", "ka", "ki", "aur", "kab"],
    function_words=["h", "me", "to"],
    english=["bail", "anticipatory", "the", "me", "to", "rent", "written"],
    keyword_map={"zamanat": "bail bailable offence", "kiraya": "rent"},
)

EMBEDDED = [
    # (case, search text, expansion, embedded)
    ("English stays whole", "what is the bail amount", " (bail)", "what is the bail amount (bail)"),
    ("one marker is not romanised Hindi", "bail kab", " (bail)", "bail kab (bail)"),
    ("no expansion: nothing is left out", "bail kya hai aur kab", "", "bail kya hai aur kab"),
    ("romanised Hindi keeps its English", "anticipatory bail kya hoti h aur kab leni",
     " (bail)", "anticipatory bail (bail)"),
    ("function words that are English go too", "kiraya ka written me to dena hai",
     " (rent)", "written (rent)"),
    ("words of the expansions are English", "zamanat ka bailable kya hai", " (bail)",
     "bailable (bail)"),
    ("acronyms and numbers stay", "FIR ka 90 din kya hai", " (report)", "FIR 90 (report)"),
    ("a capitalised word is no acronym", "Kiraya ka kya hai", " (rent)", "(rent)"),
    ("Devanagari and romanised Hindi together", "जमानत kya hai aur bail", " (bail)",
     "bail (bail)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("search_text", "expansion", "embedded"),
    [case[1:] for case in EMBEDDED],
    ids=[case[0] for case in EMBEDDED],
)
def test_embedding_text_of_romanised_hindi(search_text: str, expansion: str, embedded: str) -> None:
    assert embedding_text(search_text, expansion, WORDS) == embedded


def test_markers_are_function_words_and_expansions_english() -> None:
    assert "kya" in WORDS.function_words
    assert {"bailable", "offence", "rent"} <= WORDS.english


SHIPPED = query_words(Path("/nonexistent"), {"kiraya": "rent landlord tenant"})


@pytest.mark.parametrize(
    ("question", "expansion", "embedded"),
    [
        ("anticipatory bail kia hoti h aur kab leni chahiye", " (bail)",
         "anticipatory bail when (bail)"),
        ("mera kiraya 3 mahine se pending hai, landlord kya kar sakta hai", " (rent)",
         "3 months pending , landlord (rent)"),
        ("instagram pe fake account bana diya, kaise report karu", " (cyber)",
         "instagram fake account , how report (cyber)"),
        # a gloss wins over an English look-alike ("din"); an acronym stays as written
        ("RTI ka jawab 30 din mein nahi aaya", " (reply)", "RTI 30 days not (reply)"),
        ("DIN number kahan milega aur kya hai", " (company)", "DIN number where (company)"),
        ("चार्जशीट टाइम पर नहीं आई तो क्या बेल का हक बनता है?", " (charge sheet; right to bail)",
         "not ? (charge sheet; right to bail)"),
        # "kaha" is as often "said" as "where": no gloss
        ("police ne kaha FIR nahi likhenge, kya karu", " (First Information Report)",
         "police FIR not , (First Information Report)"),
        ("What is the notice period for a tenant to leave?", " (tenant)",
         "What is the notice period for a tenant to leave? (tenant)"),
    ],
)  # fmt: skip
def test_shipped_lists(question: str, expansion: str, embedded: str) -> None:
    assert embedding_text(question, expansion, SHIPPED) == embedded


GLOSSED = QueryWords.of(["kya", "hai"], [], ["bail", "din"], {}, {"kab": "when", "नहीं": "not"})


@pytest.mark.parametrize(
    ("search_text", "embedded"),
    [
        ("bail kab milti hai kya", "bail when (bail)"),  # a gloss in place of the word
        ("bail kya hai din", "bail din (bail)"),  # an English word with no gloss stays
        ("bail नहीं मिली kya hai", "bail not (bail)"),  # Devanagari glossed too
        ("bail KAB kya hai", "bail KAB (bail)"),  # an acronym is no grammar word
        ("bail kab", "bail kab (bail)"),  # one marker: not romanised Hindi, all kept
    ],
)
def test_glosses_replace_the_grammar_words_that_carry_meaning(
    search_text: str, embedded: str
) -> None:
    assert embedding_text(search_text, " (bail)", GLOSSED) == embedded


def test_shipped_glosses_are_english_the_embedder_reads() -> None:
    assert SHIPPED.glosses
    glossed = {w for gloss in SHIPPED.glosses.values() for w in gloss.split()}
    assert glossed <= SHIPPED.english
    assert not set(SHIPPED.glosses) & SHIPPED.english - {"din", "sal"}  # look-alikes, on purpose


@pytest.mark.parametrize(
    "glosses",
    ["[nahi, not]", "{kab tak: until}", "{nahi: ''}", "{nahi: [not]}"],
    ids=["a list", "two words in a key", "an empty gloss", "a gloss that is no text"],
)
def test_bad_glosses_name_the_file(tmp_path: Path, glosses: str) -> None:
    (tmp_path / "query_words.yaml").write_text(f"glosses: {glosses}\n", encoding="utf-8")
    with pytest.raises(ConfigFileError, match="query_words.yaml.*glosses"):
        query_words(tmp_path, {})


def test_glosses_are_read_only() -> None:
    with pytest.raises(TypeError):
        SHIPPED.glosses["nahi"] = "yes"  # type: ignore[index]


def test_a_bad_list_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "query_words.yaml").write_text("markers: kya\n", encoding="utf-8")
    with pytest.raises(ConfigFileError, match="query_words.yaml.*markers"):
        query_words(tmp_path, {})


def test_a_folder_of_its_own_lists(tmp_path: Path) -> None:
    (tmp_path / "query_words.yaml").write_text(
        "markers: [ka, ki]\nfunction_words: []\nenglish: [zzword]\n", encoding="utf-8"
    )
    words = query_words(tmp_path, {})
    assert words.markers == {"ka", "ki"} and "zzword" in words.english
    assert "kya" not in words.markers


def test_the_service_config_carries_the_shipped_lists() -> None:
    from service.pipeline_config import load_pipeline_config
    from service.settings import Settings

    config = load_pipeline_config(Settings())
    assert {"kya", "hai"} <= config.query_words.markers
    assert {"bail", "jewellery", "instagram"} <= config.query_words.english
