"""The `warden` command line: commands and options (SPEC section 4)."""

from __future__ import annotations

import argparse
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="warden", description="Guarded retrieval-augmented chat.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)

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
    return parser
