"""The `warden` command line: commands and options (SPEC section 4)."""

from __future__ import annotations

import argparse
from importlib.metadata import version
from pathlib import Path
from typing import Any

from service.cli import users


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="warden", description="Guarded retrieval-augmented chat.")
    parser.add_argument("--version", action="version", version=f"warden {version('warden')}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (more than one needs WARDEN_QDRANT_URL and WARDEN_MONGODB_URI)",
    )

    ingest = commands.add_parser("ingest", help="load files or folders into the core knowledge")
    ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    ingest.add_argument(
        "--delete-missing",
        action="store_true",
        help="remove documents under the given folders whose files are gone",
    )
    ingest.add_argument("--json", action="store_true", help="print one JSON object of counts")

    ask = commands.add_parser("ask", help="run one message through the pipeline")
    ask.add_argument(
        "question", nargs="?", help="without it: JSON lines {question, user, name} on stdin"
    )
    ask.add_argument("--user", default="cli", help="the user id (default: cli)")
    ask.add_argument("--name", default="", help="the user's display name")
    ask.add_argument("--json", action="store_true", help="print the full result as JSON")

    classify = commands.add_parser(
        "classify", help="print route decisions with reasons (no stores, no lock)"
    )
    classify.add_argument(
        "message", nargs="?", help='without it: JSON lines {"message"} or {"question"} on stdin'
    )
    classify.add_argument("--jsonl", action="store_true", help="one JSON object per message")
    classify.add_argument("--text", action="store_true", help="stdin is plain text, one a line")
    classify.add_argument("--pii", action="store_true", help="add the PII entity types found")
    classify.add_argument("--echo", action="store_true", help="include the message text")
    _add_eval(commands)
    reindex = commands.add_parser(
        "reindex", help="re-embed the stored chunks with the configured embedding model"
    )
    reindex.add_argument("--force", action="store_true", help="even if already built with it")
    reindex.add_argument("--json", action="store_true", help="print one JSON object of counts")
    _add_migrate(commands)
    _add_backup(commands)
    users.add_commands(commands)  # users, rotate-data-key
    return parser


def _add_migrate(commands: Any) -> None:  # argparse's subparsers action
    migrate = commands.add_parser(
        "migrate", help="copy the embedded deployment (WARDEN_DATA_DIR) into Qdrant and MongoDB"
    )
    migrate.add_argument(
        "--to-qdrant", required=True, metavar="URL", help="http(s)://host:6333, or file:PATH"
    )
    migrate.add_argument("--to-mongodb", required=True, metavar="URI", help="mongodb://...")
    migrate.add_argument("--batch-size", type=int, default=256, help="items per write")
    migrate.add_argument("--json", action="store_true", help="print the counts as JSON")


def _add_backup(commands: Any) -> None:  # argparse's subparsers action
    """service/cli/backup.py; both refuse while the service runs on the data folder."""
    backup = commands.add_parser("backup", help="copy the data folder (service stopped) to DIR")
    backup.add_argument("dir", type=Path, metavar="DIR", help="a new or empty folder")
    restore = commands.add_parser("restore", help="copy a backup in DIR into the data folder")
    restore.add_argument("dir", type=Path, metavar="DIR", help="a folder `warden backup` wrote")
    restore.add_argument(
        "--force", action="store_true", help="replace what a non-empty data folder holds"
    )


def _add_eval(commands: Any) -> None:  # argparse's subparsers action
    evaluate = commands.add_parser("eval", help="evaluate retrieval or the guards on a file")
    kinds = evaluate.add_subparsers(dest="eval_kind", required=True, metavar="KIND")
    retrieval = kinds.add_parser("retrieval", help="recall, MRR, nDCG and the answer gate")
    retrieval.add_argument("--qa", type=Path, required=True, metavar="FILE.jsonl")
    retrieval.add_argument(
        "--corpus", type=Path, metavar="DIR", help="index DIR into a scratch data folder first"
    )
    retrieval.add_argument(
        "--calibrate", action="store_true", help="fit the calibrated answer gate and install it"
    )
    guards = kinds.add_parser("guards", help="per-route precision and recall of the classifier")
    guards.add_argument("--data", type=Path, required=True, metavar="FILE.jsonl")
    for kind in (retrieval, guards):
        kind.add_argument("--out", type=Path, default=Path("eval-report"), metavar="DIR")
        kind.add_argument("--json", action="store_true", help="print the report as JSON")
