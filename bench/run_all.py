"""Runs every bench in sequence with small defaults (`make bench`); ~3-4 minutes on 2 cores.

    python bench/run_all.py [--full] [--only NAME ...]

--full runs each bench with its own (larger) defaults instead. A bench that fails is reported
and the others still run; the exit status is 1 if any failed. Figures only: nothing asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> (script, small arguments for the quick run)
BENCHES: dict[str, tuple[str, list[str]]] = {
    "http": ("bench_http.py", ["--rounds", "3", "--duration", "3"]),
    "http-distinct": ("bench_http.py", ["--rounds", "3", "--duration", "3", "--distinct"]),
    "classify": ("bench_classify.py", ["--repeats", "100"]),
    "nodes": ("bench_nodes.py", ["--sizes", "1000", "10000", "--repeats", "2"]),
    "vectors": (
        "bench_vectors.py",
        ["--points", "1000", "10000", "--queries", "100", "--local-queries", "10"],
    ),
    "ingest": ("bench_ingest.py", ["--copies", "2"]),
    "store_modes": ("store_modes.py", ["20"]),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="each bench's own defaults")
    parser.add_argument("--only", nargs="+", choices=list(BENCHES), help="run these only")
    args = parser.parse_args()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    failed: list[str] = []
    started_all = time.perf_counter()
    for name in args.only or BENCHES:
        script, small = BENCHES[name]
        command = [sys.executable, str(ROOT / "bench" / script), *([] if args.full else small)]
        print(
            f"\n######## {name}: {' '.join(command[1:]).replace(str(ROOT) + '/', '')}", flush=True
        )
        started = time.perf_counter()
        code = subprocess.run(command, cwd=ROOT, env=env).returncode
        elapsed = time.perf_counter() - started
        print(
            f"######## {name}: {'ok' if code == 0 else f'FAILED (exit {code})'} in {elapsed:.0f} s",
            flush=True,
        )
        if code != 0:
            failed.append(name)
    total = time.perf_counter() - started_all
    print(f"\nall benches: {total:.0f} s" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
