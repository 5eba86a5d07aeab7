"""The `warden` program: `serve | ingest | ask | classify | eval | migrate | backup | restore`
(SPEC section 4). It builds what a command needs (through `bootstrap`) and hands it to the
command in service/cli/.

Exit codes: 0 done; 1 some input failed (a document, a question); 2 cannot run (bad usage or
configuration, or the data folder is held by another Warden process).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from pipelines.ports import StoreUnavailable, embedding_model
from pipelines.safety.confidence import GateCalibration
from service import bootstrap
from service.bootstrap.migration import MigrationRefused, open_migration
from service.cli.ask import ask
from service.cli.evaluate import EvalOptions, eval_guards, eval_retrieval
from service.cli.ingest import ingest
from service.cli.parser import build_parser
from service.evaluation.cases import (
    CaseFileError,
    GuardCase,
    RetrievalCase,
    read_guard_cases,
    read_retrieval_cases,
)
from service.pipeline_config import (
    ConfigFileError,
    calibration_path,
    gate_calibration_path,
    load_calibration,
)
from service.process_lock import DataDirBusy, data_dir_lock
from service.serving import serve
from service.settings import Settings


def _settings_problem(error: ValidationError) -> str:
    """Where and what, never the value (it may be a secret)."""
    parts = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()]
    return "invalid configuration: " + "; ".join(parts)


def _run(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "serve":
        return serve(settings, args.host, args.port, args.workers)
    if args.command == "classify":  # opens no store: no lock, so it runs beside `serve`
        return asyncio.run(_classify(settings, args))
    if args.command == "eval":
        return run_eval(settings, args)
    if args.command == "migrate":  # reads a snapshot: holds the folder only while copying it
        return asyncio.run(_migrate(settings, args))
    if args.command in ("backup", "restore"):  # they take the data folder's lock themselves
        return run_backup(settings, args)
    with data_dir_lock(settings, args.command):
        if args.command in ("users", "rotate-data-key"):
            return asyncio.run(_operator(settings, args))
        if args.command == "ingest":
            return asyncio.run(_ingest(settings, args))
        if args.command == "reindex":
            return asyncio.run(_reindex(settings, args))
        return asyncio.run(_ask(settings, args))


async def _migrate(settings: Settings, args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from service.cli.migrate import run_migrate

    if args.batch_size < 1:
        raise MigrationRefused("--batch-size must be at least 1")
    async with open_migration(
        settings, to_qdrant=args.to_qdrant, to_mongodb=args.to_mongodb
    ) as plan:
        return await run_migrate(
            plan, now=datetime.now(UTC), batch_size=args.batch_size, as_json=args.json
        )


async def _reindex(settings: Settings, args: argparse.Namespace) -> int:
    from service.cli.reindex import run_reindex

    embedder = await bootstrap.open_embedder()
    rebuild = await bootstrap.open_rebuild(settings, embedding_model(embedder))
    return await run_reindex(rebuild, embedder, force=args.force, as_json=args.json)


async def _classify(settings: Settings, args: argparse.Namespace) -> int:
    from service.cli.classify import ClassifyOptions, classify

    options = ClassifyOptions(args.jsonl, args.text, args.pii, args.echo)
    config = await bootstrap.pipeline_config(settings)
    detector = await bootstrap.open_detector() if options.pii else None
    return await classify(settings, args.message, options, config=config, detector=detector)


async def _operator(settings: Settings, args: argparse.Namespace) -> int:
    from service.bootstrap.privacy import open_rotation, open_user_admin
    from service.cli.users import rotate_data_key, users

    if args.command == "users":
        async with open_user_admin(settings) as admin:
            return await users(admin, args)
    async with open_rotation(settings) as rotation:
        return await rotate_data_key(rotation, args.json)


async def _ingest(settings: Settings, args: argparse.Namespace) -> int:
    knowledge = await bootstrap.open_knowledge(settings)
    return await ingest(knowledge, args.paths, args.delete_missing, args.json)


async def _ask(settings: Settings, args: argparse.Namespace) -> int:
    container = await bootstrap.build_container(settings)
    try:
        return await ask(container.chat, args.question, args.user, args.name, args.json)
    finally:
        await container.close()


def run_backup(settings: Settings, args: argparse.Namespace) -> int:
    from service.cli.backup import backup, restore

    if args.command == "backup":
        return backup(settings, args.dir)
    return restore(settings, args.dir, force=args.force)


def run_eval(settings: Settings, args: argparse.Namespace) -> int:
    """Reads the file first (a bad line costs no model load). `retrieval` on the configured
    deployment takes the data-folder lock like `ask`; with --corpus it indexes DIR into a
    scratch folder on the embedded defaults, so the deployment is never touched, except that
    --calibrate installs the fitted gate where the deployment reads it."""
    install = calibration_path(settings) if getattr(args, "calibrate", False) else None
    options = EvalOptions(args.out, args.json, install)
    if args.eval_kind == "guards":
        return asyncio.run(_eval_guards(settings, read_guard_cases(args.data), options))
    cases = read_retrieval_cases(args.qa)
    if args.corpus is None:
        with data_dir_lock(settings, "eval"):
            return asyncio.run(_eval_retrieval(settings, cases, options))
    with tempfile.TemporaryDirectory(prefix="warden-eval-") as scratch:
        embedded = {"data_dir": Path(scratch), "qdrant_url": None, "mongodb_uri": None}
        scratch_settings = settings.model_copy(update=embedded)
        calibration = load_calibration(gate_calibration_path(settings))
        return asyncio.run(
            _eval_retrieval(scratch_settings, cases, options, args.corpus, calibration)
        )


async def _eval_guards(settings: Settings, cases: list[GuardCase], options: EvalOptions) -> int:
    return eval_guards(await bootstrap.pipeline_config(settings), cases, options)


async def _eval_retrieval(
    settings: Settings,
    cases: list[RetrievalCase],
    options: EvalOptions,
    corpus: Path | None = None,
    calibration: GateCalibration | None = None,
) -> int:
    embedder = await bootstrap.open_embedder()
    config = None
    if corpus is not None:
        knowledge = await bootstrap.open_knowledge(settings, embedder=embedder)
        code = await ingest(knowledge, [corpus], False, False, out=sys.stderr)
        if code:
            return code
        config = replace(await bootstrap.pipeline_config(settings), calibration=calibration)
    container = await bootstrap.build_container(settings, embedder=embedder, config=config)
    try:
        return await eval_retrieval(container.deps, cases, options)
    finally:
        await container.close()


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
    except (StoreUnavailable, CaseFileError, MigrationRefused, ConfigFileError) as exc:
        print(f"warden: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
