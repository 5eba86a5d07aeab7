"""PII masking quality on third-party labelled sentences (presidio-evaluator), per option.

    PYTHONPATH=. python bench/eval_pii.py [--n 1000] [--per-entity 300] [--seed 2024]
                                          [--options stock,spacy_sm,names,combo]

Data: presidio-evaluator's ~200 sentence templates (Microsoft, MIT), filled offline by its
generator from its FakeNameGenerator.com sample of 3,000 people (many nationalities) and
Faker; nobody on the team wrote them. `n` sentences are drawn over all templates, plus
`per-entity` more for each target type from the templates holding it (SSN, IP and IBAN sit
in 2-3 templates each: a uniform draw has too few to measure a 1% leak rate). The
generator's one online provider (hospitals, from Wikidata) is left out.

Per target entity, over every labelled value:
- leak: the value survives whole (no character of it is masked), the issue's definition;
- partial: some word of the value survives (the "Mackay" of "Leigha Mackay"), stricter.
PERSON (unlisted) is the PERSON values none of whose words is in Faker's name lists, which
the name-list recognizer reads: a check on names it cannot simply look up.
False-mask: share of unlabelled words that get masked; "other labelled" is the share of
words labelled with a non-target type (city, organisation, title) that get masked.
Benign questions: real questions from the Python and Debian FAQs (Debian packages
python3.11-doc and debian-faq, if installed) that get any mask at all.
Latency: `detect_sync` per message over the uniform draw, after a warm-up.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import io
import os
import random
import re
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.ports import PiiSpan

Detect = Callable[[str], list[PiiSpan]]
STRUCTURED = ("EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE", "IP_ADDRESS", "US_SSN")
TARGETS = ("PERSON", "STREET_ADDRESS", "DATE_OF_BIRTH", *STRUCTURED)
UNLISTED = "PERSON (unlisted)"
# Template placeholders per target type, for the stratified draw.
PLACEHOLDERS = {
    "PERSON": "person name first_name last_name name_female name_male first_name_male "
    "first_name_female last_name_male last_name_female first_name_nonbinary",
    "STREET_ADDRESS": "address street_name building_number secondary_address",
    "DATE_OF_BIRTH": "date_of_birth",
    "EMAIL_ADDRESS": "email",
    "PHONE_NUMBER": "phone_number",
    "CREDIT_CARD": "credit_card_number",
    "IBAN_CODE": "iban",
    "IP_ADDRESS": "ip_address",
    "US_SSN": "ssn",
}
PYTHON_FAQ = Path("/usr/share/doc/python3.11/html/_sources/faq")
DEBIAN_FAQ = Path("/usr/share/doc/debian/FAQ/debian-faq.en.txt.gz")


@dataclass(frozen=True)
class Sample:
    text: str
    spans: tuple[tuple[int, int, str], ...]  # (start, end, entity type)


@contextlib.contextmanager
def _isolated() -> Iterator[None]:
    """presidio-evaluator prints progress, loads a .env file into os.environ on import and
    seeds the global random generators: all of that is undone afterwards."""
    import numpy as np

    saved_env, saved_random, saved_np = dict(os.environ), random.getstate(), np.random.get_state()
    with (
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved_env)
            random.setstate(saved_random)
            np.random.set_state(saved_np)


def _generate(
    templates: list[str], records: list[dict[str, object]], count: int, seed: int
) -> list[Sample]:
    from presidio_evaluator.data_generator import presidio_sentence_faker as psf

    providers = [
        p for p in psf.presidio_additional_entity_providers if p.__name__ != "HospitalProvider"
    ]
    mapping = dict(psf.PresidioSentenceFaker.ENTITY_TYPE_MAPPING, date_of_birth="DATE_OF_BIRTH")
    faker = psf.PresidioSentenceFaker(
        "en_US",
        lower_case_ratio=0.05,
        sentence_templates=templates,
        entity_providers=providers,
        entity_type_mapping=mapping,
        base_records=records,
        random_seed=seed,
    )
    return [
        Sample(
            s.full_text, tuple((g.start_position, g.end_position, g.entity_type) for g in s.spans)
        )
        for s in faker.generate_new_fake_sentences(count)
    ]


@functools.cache
def make_samples(n: int, per_entity: int, seed: int) -> tuple[list[Sample], list[Sample]]:
    """(uniform draw over all templates, stratified draw per target type)."""
    with _isolated():
        from presidio_evaluator.data_generator import presidio_sentence_faker as psf
        from presidio_evaluator.data_generator.faker_extensions import datasets

        lines = psf.presidio_templates_file_path.read_text(encoding="utf-8").splitlines()
        # The file writes line breaks as a literal backslash-n.
        templates = [line.strip().replace("\\n", "\n") for line in lines if line.strip()]
        random.seed(seed)  # the people table picks name formats at random
        records = datasets.load_fake_person_df().to_dict(orient="records")
        uniform = _generate(templates, records, n, seed)
        stratified: list[Sample] = []
        for k, entity in enumerate(TARGETS):
            marks = ["{{" + p + "}}" for p in PLACEHOLDERS[entity].split()]
            chosen = [t for t in templates if any(m in t.lower() for m in marks)]
            stratified += _generate(chosen, records, per_entity, seed + 1 + k)
    return uniform, stratified


def faq_questions() -> list[str]:
    """Section-title questions of the Python and Debian FAQs; empty if not installed."""
    questions: set[str] = set()
    for page in sorted(PYTHON_FAQ.glob("*.rst.txt")) if PYTHON_FAQ.is_dir() else []:
        lines = page.read_text(encoding="utf-8").splitlines()
        for title, rule in zip(lines, lines[1:], strict=False):
            if title.strip().endswith("?") and re.fullmatch(r"-{3,}", rule.strip()):
                questions.add(title.strip())
    if DEBIAN_FAQ.is_file():
        with gzip.open(DEBIAN_FAQ, "rt", encoding="utf-8") as faq:
            text = faq.read()
        questions |= set(re.findall(r"^\s*\d+\.\d+\.\s+(.+\?)\s*$", text, re.M))
    return sorted(questions)


@dataclass
class Counts:
    total: int = 0
    leaked: int = 0
    partial: int = 0

    def rate(self, count: int) -> float:
        return count / self.total if self.total else 0.0


@dataclass
class Report:
    entities: dict[str, Counts] = field(default_factory=dict)
    clean_words: Counts = field(default_factory=Counts)  # leaked = masked
    other_words: Counts = field(default_factory=Counts)
    latencies_ms: list[float] = field(default_factory=list)
    benign_masked: list[str] = field(default_factory=list)
    benign_total: int = 0

    def latency(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(m.start() + start, m.end() + start) for m in re.finditer(r"\w+", text[start:end])]


def score(
    detect: Detect,
    samples: Sequence[Sample],
    listed: Callable[[str], bool],
    report: Report | None = None,
    timed: bool = True,
) -> Report:
    """Adds the samples' counts to `report`; `listed(word)` says if a name list holds it."""
    report = report or Report(entities={t: Counts() for t in (*TARGETS, UNLISTED)})
    for sample in samples:
        began = time.perf_counter()
        spans = detect(sample.text)
        if timed:
            report.latencies_ms.append((time.perf_counter() - began) * 1000)
        masked = [False] * len(sample.text)
        for span in spans:
            masked[span.start : span.end] = [True] * (span.end - span.start)
        labelled: dict[int, str] = {}
        for start, end, entity in sample.spans:
            labelled |= dict.fromkeys(range(start, end), entity)
            words = _words(sample.text, start, end)
            keys = [entity] if entity in TARGETS else []
            if entity == "PERSON" and not any(listed(sample.text[a:b]) for a, b in words):
                keys.append(UNLISTED)
            for key in keys:
                counts = report.entities[key]
                counts.total += 1
                counts.leaked += not any(masked[start:end])
                counts.partial += any(not any(masked[a:b]) for a, b in words)
        for a, b in _words(sample.text, 0, len(sample.text)):
            kinds = {labelled[i] for i in range(a, b) if i in labelled}
            bucket = report.other_words if kinds and not kinds & set(TARGETS) else None
            bucket = report.clean_words if not kinds else bucket
            if bucket is not None:
                bucket.total += 1
                bucket.leaked += any(masked[a:b])
    return report


def evaluate(
    detect: Detect, n: int, per_entity: int, seed: int, questions: Sequence[str] = ()
) -> Report:
    from service.adapters.pii.lexicon import load_lexicon

    lexicon = load_lexicon()
    uniform, stratified = make_samples(n, per_entity, seed)
    report = score(detect, uniform, lexicon.is_name)
    score(detect, stratified, lexicon.is_name, report, timed=False)
    report.benign_total = len(questions)
    report.benign_masked = [q for q in questions if detect(q)]
    return report


def table(reports: dict[str, Report]) -> str:
    def pct(counts: Counts, count: int) -> str:
        return f"{counts.rate(count):.1%}"

    first = next(iter(reports.values()))
    lines = ["| entity | n | " + " | ".join(reports) + " |", "|" + "---|" * (2 + len(reports))]
    for key, counts in first.entities.items():
        cells = [
            f"{pct(r.entities[key], r.entities[key].leaked)} / "
            + pct(r.entities[key], r.entities[key].partial)
            for r in reports.values()
        ]
        lines.append(f"| {key} leak / partial | {counts.total} | " + " | ".join(cells) + " |")
    rows = {
        "false-mask, unlabelled words": lambda r: f"{r.clean_words.rate(r.clean_words.leaked):.2%}",
        "masked, other labelled words": lambda r: f"{r.other_words.rate(r.other_words.leaked):.1%}",
        "benign FAQ questions masked": lambda r: f"{len(r.benign_masked)}/{r.benign_total}",
        "latency ms, median / p95": lambda r: f"{r.latency(0.5):.2f} / {r.latency(0.95):.2f}",
    }
    for label, cell in rows.items():
        lines.append(f"| {label} | | " + " | ".join(cell(r) for r in reports.values()) + " |")
    return "\n".join(lines)


def options() -> dict[str, Callable[[], Detect]]:
    """Detector options by name; each builds and warms a detector when called."""
    from service.adapters.pii import presidio_detector as pd
    from service.adapters.pii.nlp import SpacyModelNlpEngine, spacy_person_recognizer

    def build(**kwargs: object) -> Detect:
        detector = pd.PresidioPiiDetector(**kwargs)  # type: ignore[arg-type]
        detector.warm()
        return detector.detect_sync

    def without_names() -> list[object]:
        return [r for r in pd.default_recognizers() if "PERSON" not in r.supported_entities]

    return {
        "stock": lambda: build(recognizers=pd.stock_recognizers()),
        "names": lambda: build(),
        "spacy_sm": lambda: build(
            nlp_engine=SpacyModelNlpEngine(),
            recognizers=[*without_names(), spacy_person_recognizer()],
        ),
        "combo": lambda: build(
            nlp_engine=SpacyModelNlpEngine(),
            recognizers=[*pd.default_recognizers(), spacy_person_recognizer()],
        ),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--per-entity", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--options", default="stock,spacy_sm,names,combo")
    parser.add_argument("--show-benign", action="store_true", help="print masked FAQ questions")
    args = parser.parse_args(argv)
    questions = faq_questions()
    built = options()
    reports = {
        name: evaluate(built[name](), args.n, args.per_entity, args.seed, questions)
        for name in args.options.split(",")
    }
    print(f"seed {args.seed}: {args.n} uniform + {args.per_entity} per target type")
    print(table(reports))
    for name, report in reports.items() if args.show_benign else ():
        print(f"{name}: {report.benign_masked}")


if __name__ == "__main__":
    main()
