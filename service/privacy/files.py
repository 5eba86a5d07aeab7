"""Owner-only files in the data folder: new files 0600 and folders 0700 (the process umask),
and what an older version left more open is tightened at start."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)


def owner_only(data_dir: Path) -> None:
    """Sets the umask to 077 and tightens the data folder and everything in it (a file this
    user may not change, such as one another user owns, is left as it is)."""
    os.umask(0o077)
    data_dir.mkdir(parents=True, exist_ok=True)
    for folder, dirs, files in os.walk(data_dir):
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o700)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o600)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]


def readable_by_owner_only(path: Path) -> None:
    """A secret file others could read is tightened to 0600, with a warning."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("%s was readable by others (mode %o); tightening to 0600", path, mode)
        path.chmod(0o600)
