"""Word lists the person-name recognizer reads, loaded once, all from local files.

- Given names and surnames: Faker's per-locale person lists (every locale Faker ships; MIT)
  and the `indian-names` package's lists (BSD-3; Faker's Indian lists are short), both read
  from the installed packages, so nothing is fetched.
- English words: SCOWL's `american-english` list (the Debian `wamerican` package), only its
  lower-case entries, shipped in service/config/pii/english_words.txt. A name that is also an
  everyday word ("Will", "Rose", "Bill") needs more evidence than "Priya" does.
- Titles, cue phrases and proper nouns that are not people: service/config/pii/person.yaml.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from service.word_lists import read_words

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config" / "pii"


@dataclass(frozen=True)
class NameLexicon:
    given: frozenset[str]  # lower case
    surnames: frozenset[str]
    english: frozenset[str]  # everyday words, lower case
    titles: frozenset[str]  # "mr", "dr", ... without the dot
    cues: tuple[tuple[str, ...], ...]  # word sequences that introduce a name ("my name is")
    post_cues: tuple[tuple[str, ...], ...]  # word sequences that follow a name ("said")
    name_cues: tuple[tuple[str, ...], ...]  # cues after which a name counts in any case
    from_cues: tuple[tuple[str, ...], ...]  # "i am" of "I am <name> from"
    name_stops: frozenset[str]  # Hinglish words that end a name after a cue ("hai", "ji")
    relations: frozenset[str]  # "s/o", "w/o", ... read as one word
    not_name_phrases: tuple[tuple[str, ...], ...]  # "jan dhan": never a person
    not_names: frozenset[str]  # capitalised words that are never a person (months, languages)
    place_before: tuple[tuple[str, ...], ...]  # "village", "thana": the next run is a place
    place_after: tuple[tuple[str, ...], ...]  # "court", "police station": the run before is one
    places: frozenset[str]  # countries, their capitals, Indian cities and states, US states
    stop_words: frozenset[str]

    def is_name(self, word: str) -> bool:
        low = word.casefold()
        return low in self.given or low in self.surnames

    def is_everyday(self, word: str) -> bool:
        return word.casefold() in self.english


def _split(values: Iterable[object]) -> set[str]:
    """Name parts, lower case: "Mary-Jane van Dyke" gives mary, jane, van, dyke."""
    parts: set[str] = set()
    for value in values:
        for part in str(value).replace("-", " ").split():
            parts.add(part.casefold())
    return parts


def faker_names() -> tuple[set[str], set[str]]:
    """(given names, surnames) from every locale of Faker's person provider."""
    import faker.providers.person as person

    given: set[str] = set()
    surnames: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        provider = importlib.import_module(f"{person.__name__}.{module.name}").Provider
        for attribute in dir(provider):
            values = getattr(provider, attribute)
            if not isinstance(values, dict | list | tuple):
                continue
            if attribute.startswith("first_names"):
                given |= _split(values)
            elif attribute.startswith("last_names"):
                surnames |= _split(values)
    return given, surnames


def indian_names() -> tuple[set[str], set[str]]:
    """(given names, surnames) shipped in the `indian-names` package."""
    import indian_names

    def read(key: str) -> set[str]:
        lines = Path(indian_names.FILES[key]).read_text(encoding="utf-8").splitlines()[1:]
        return _split(line.strip() for line in lines if line.strip())

    return read("first:male") | read("first:female"), read("last")


def faker_places() -> set[str]:
    """Country and capital names, Indian cities and states, US states (lower case)."""
    from faker.providers.address.en_IN import Provider as IndianAddress
    from faker.providers.address.en_US import Provider as UsAddress
    from faker.providers.date_time import Provider as DateTime

    places = {c.name for c in DateTime.countries} | {c.capital for c in DateTime.countries}
    places |= set(IndianAddress.cities) | set(IndianAddress.states) | set(UsAddress.states)
    return {p.casefold() for p in places}


def config_words(settings: dict[str, object], key: str) -> list[str]:
    """A list of words from a YAML file; refuses what YAML read as something else
    (unquoted `no` is False, `name:` a mapping)."""
    values = settings[key]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{key}: every entry must be a string (quote yes, no, 'name:')")
    return [v.casefold() for v in values]


def _phrases(values: list[str]) -> tuple[tuple[str, ...], ...]:
    """Cue phrases as word tuples, without trailing punctuation ("name:" -> ("name",))."""
    return tuple(tuple(w.rstrip(":,") for w in v.split()) for v in values)


def load_lexicon(config_dir: Path = CONFIG_DIR) -> NameLexicon:
    from spacy.lang.en.stop_words import STOP_WORDS

    settings = yaml.safe_load((config_dir / "person.yaml").read_text(encoding="utf-8"))
    given, surnames = faker_names()
    more_given, more_surnames = indian_names()
    given |= more_given
    surnames |= more_surnames
    connectors = set(config_words(settings, "not_name_parts"))
    return NameLexicon(
        given=frozenset(given - connectors),
        surnames=frozenset(surnames - connectors),
        english=read_words(config_dir / "english_words.txt")
        | frozenset(config_words(settings, "everyday_hinglish")),
        titles=frozenset(t.rstrip(".") for t in config_words(settings, "titles")),
        cues=_phrases(config_words(settings, "cues")),
        post_cues=_phrases(config_words(settings, "post_cues")),
        name_cues=_phrases(config_words(settings, "name_cues")),
        from_cues=_phrases(config_words(settings, "from_cues")),
        name_stops=frozenset(config_words(settings, "name_stop_words")),
        relations=frozenset(config_words(settings, "relation_markers")),
        not_name_phrases=_phrases(config_words(settings, "not_name_phrases")),
        not_names=frozenset(config_words(settings, "not_names")),
        place_before=_phrases(config_words(settings, "place_before")),
        place_after=_phrases(config_words(settings, "place_after")),
        places=frozenset(faker_places()),
        stop_words=frozenset(STOP_WORDS),
    )


class UsesLexicon:
    """For a recognizer that reads the shared name lexicon: loaded on first use (Presidio
    calls `load()`), or given at construction. List it before `EntityRecognizer`."""

    _lexicon: NameLexicon | None = None

    def load(self) -> None:
        if self._lexicon is None:
            self._lexicon = load_lexicon()

    @property
    def lexicon(self) -> NameLexicon:
        if self._lexicon is None:
            self.load()
        assert self._lexicon is not None
        return self._lexicon
