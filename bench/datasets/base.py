"""What every evaluation set is: third-party texts with the route they should take, split once.

Each text gets a fixed split by a hash of (dataset, text): about 30% `dev` (may be read and tuned
on), 70% `held_out` (never looked at while tuning). A dataset with a split of its own (the
Kaggle insults train/test files) keeps that split instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Split = Literal["dev", "held_out"]
# What the router should do with every text of a set:
#   "abusive"  -> must be rejected (insults, hate, injections)
#   "question" -> must be answered (not rejected, not short-circuited to greet)
#   "greeting" -> must go to greet
Expect = Literal["abusive", "question", "greeting"]
DEV_SHARE = 0.3


class SourceMissing(RuntimeError):
    """A source file or package archive is not on this machine; the message says how to get it."""


@dataclass(frozen=True)
class Sample:
    text: str
    split: Split


@dataclass(frozen=True)
class Dataset:
    name: str
    group: str  # "abuse", "injection", "greeting"
    expect: Expect
    source: str  # package and path the texts come from
    licence: str
    samples: tuple[Sample, ...]
    derived: str = ""  # how the team transformed the third-party text, if it did

    def split(self, which: Split | None) -> list[str]:
        return [s.text for s in self.samples if which is None or s.split == which]


def hashed_split(dataset: str, text: str, dev_share: float = DEV_SHARE) -> Split:
    digest = hashlib.sha1(f"{dataset}\x00{text}".encode()).digest()
    return "dev" if int.from_bytes(digest[:4], "big") / 2**32 < dev_share else "held_out"


def make(
    name: str,
    group: str,
    expect: Expect,
    source: str,
    licence: str,
    texts: Iterable[str],
    derived: str = "",
    splits: Iterable[Split] | None = None,
) -> Dataset:
    """Builds a dataset from texts (stripped, empty and duplicate texts dropped, order kept)."""
    seen: set[str] = set()
    samples: list[Sample] = []
    given = list(splits) if splits is not None else None
    for index, raw in enumerate(texts):
        text = raw.strip()
        if not text or text in seen:
            continue
        seen.add(text)
        split = given[index] if given is not None else hashed_split(name, text)
        samples.append(Sample(text, split))
    return Dataset(name, group, expect, source, licence, tuple(samples), derived)
