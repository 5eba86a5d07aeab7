"""`warden serve | ingest | ask | classify` (SPEC section 4).

Exit codes: 0 done; 1 some input failed (a document, a question); 2 cannot run (bad usage or
configuration, or the data folder is held by another Warden process).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from pydantic import ValidationError

from pipelines.ports import StoreUnavailable
from service.process_lock import DataDirBusy, ProcessLock
from service.settings import Settings

GRACEFUL_SHUTDOWN_S = 15


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


def data_dir_lock(
    settings: Settings, command: str, url: str | None = None
) -> AbstractContextManager[object]:
    """Holds data_dir/warden.lock while a command uses what only one process may open there.

    `serve` and `ask` always take it (the history outbox lives in data_dir); `ingest` only
    with the embedded vector index (with a Qdrant server it touches no single-process file).
    """
    if command == "ingest" and settings.qdrant_url:
        return nullcontext()
    return ProcessLock(settings.data_dir, command=command, url=url)


def _settings_problem(error: ValidationError) -> str:
    """Where and what, never the value (it may be a secret)."""
    parts = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()]
    return "invalid configuration: " + "; ".join(parts)


def serve(settings: Settings, host: str, port: int) -> int:
    import uvicorn

    from service.app import create_app

    url = f"http://{host}:{port}"
    with data_dir_lock(settings, "serve", url):
        config = uvicorn.Config(
            create_app(settings=settings),
            host=host,
            port=port,
            workers=1,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        )
        uvicorn.Server(config).run()
    return 0


def _run(args: argparse.Namespace, settings: Settings) -> int:
    from service.cli import commands as cli_commands

    if args.command == "serve":
        return serve(settings, args.host, args.port)
    if args.command == "classify":  # opens no store: no lock, so it runs beside `serve`
        from service.cli.classify import ClassifyOptions, classify

        options = ClassifyOptions(args.jsonl, args.text, args.pii, args.echo)
        return asyncio.run(classify(settings, args.message, options))
    with data_dir_lock(settings, args.command):
        if args.command == "ingest":
            return asyncio.run(
                cli_commands.ingest(settings, args.paths, args.delete_missing, args.json)
            )
        return asyncio.run(
            cli_commands.ask(settings, args.question, args.user, args.name, args.json)
        )


def configure_logging(command: str) -> None:
    level = logging.INFO if command == "serve" else logging.WARNING
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    # Presidio logs the analysed text (raw personal data) at DEBUG and INFO: never let it through.
    logging.getLogger("presidio-analyzer").setLevel(logging.WARNING)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "ask" and not args.user.strip():
        parser.error("--user must not be empty")
    configure_logging(args.command)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"warden: {_settings_problem(exc)}", file=sys.stderr)
        return 2
    try:
        return _run(args, settings)
    except DataDirBusy as exc:
        print(f"warden: {exc.message()}", file=sys.stderr)
        return 2
    except StoreUnavailable as exc:
        print(f"warden: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
