"""`warden users add|disable|enable|list|revoke` and `warden rotate-data-key`: the operator's
account and key commands. Output on stdout (`--json`: one object), problems on stderr."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any, TextIO

from service.auth.admin import AdminError, UserAdmin, UserView
from service.privacy.rotation import Rotation, RotationRefused


def add_commands(commands: Any) -> None:  # argparse's subparsers action
    users = commands.add_parser("users", help="add, disable, enable, list accounts; revoke tokens")
    actions = users.add_subparsers(dest="users_action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="create an account (reads the password from stdin)")
    add.add_argument("email")
    add.add_argument("--name", default="", help="the display name")
    for name, text in (
        ("disable", "refuse the account's logins and tokens"),
        ("enable", "lift a disable"),
        ("revoke", "refuse the account's tokens issued until now"),
    ):
        actions.add_parser(name, help=text).add_argument("email")
    actions.add_parser("list", help="every account, with its status")
    for action in actions.choices.values():
        action.add_argument("--json", action="store_true", help="print JSON")
    rotate = commands.add_parser(
        "rotate-data-key", help="re-seal stored history under a new data key"
    )
    rotate.add_argument("--json", action="store_true", help="print the counts as JSON")


def read_password(stdin: TextIO) -> str:
    """The first line of stdin, or a prompt (twice) on a terminal."""
    if not stdin.isatty():
        return stdin.readline().rstrip("\r\n")
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise AdminError("the passwords differ")
    return first


def _show(views: list[UserView], as_json: bool, out: TextIO) -> None:
    if as_json:
        print(json.dumps([v.as_json() for v in views]), file=out)
        return
    for v in views:
        status = "disabled" if v.disabled else "active"
        if v.revoked_before:
            status += f", tokens until {v.revoked_before:%Y-%m-%d %H:%M:%S} revoked"
        print(f"{v.email}\t{v.id}\t{v.name}\t{status}", file=out)


async def users(admin: UserAdmin, args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    action = args.users_action
    try:
        if action == "add":
            user = await admin.add(args.email, args.name, read_password(sys.stdin))
            views = [v for v in await admin.list() if v.id == user.id]
        elif action == "list":
            views = await admin.list()
        elif action == "revoke":
            views = [await admin.revoke(args.email)]
        else:
            views = [await admin.set_disabled(args.email, action == "disable")]
    except AdminError as error:
        print(f"warden: {error}", file=sys.stderr)
        return 1
    _show(views, args.json, out)
    return 0


async def rotate_data_key(rotation: Rotation, as_json: bool, *, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out
    try:
        report = await rotation.run()
    except RotationRefused as error:
        print(f"warden: {error}", file=sys.stderr)
        return 2
    counts = {
        "users": report.users,
        "resealed": report.resealed,
        "sealed_from_clear": report.sealed_from_clear,
        "unchanged": report.unchanged,
        "key_changed": report.key_changed,
        "key_source": report.key_source,
    }
    if as_json:
        print(json.dumps(counts), file=out)
        return 0
    print(", ".join(f"{k} {v}" for k, v in counts.items()), file=out)
    if report.key_source == "environment" and report.key_changed:
        print("warden: now set WARDEN_DATA_KEY to the new key alone", file=sys.stderr)
    elif not report.key_changed:
        print(
            "warden: WARDEN_DATA_KEY holds one key: put a new one first (NEW,OLD) to rotate",
            file=sys.stderr,
        )
    return 0
