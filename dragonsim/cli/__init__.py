"""The command line: parse, validate, call the public API, format. Nothing else lives here.

One module per group of commands (:mod:`.lords`: rules, sheets, odds, baselines; :mod:`.duel`:
duel, battle and the balance studies; :mod:`.dice`; :mod:`.krynn`), each exposing
``register(subparsers)``, all sharing :mod:`.common`. Handlers import the heavy modules only
when they run, so ``--help`` is instant and a command warms only the kernels it uses.

Exit codes: 0 success, 2 bad input (one line on stderr, never a traceback), 130 interrupted
before anything finished.
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..errors import UserError
from . import dice, duel, krynn, lords
from .common import Parser

#: the command modules, each with ``register(subparsers)``
COMMAND_MODULES = (lords, duel, dice, krynn)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m dragonsim",
        description="Monte Carlo balance analysis of dragon-combat tabletop games.",
    )
    parser.add_argument("--version", action="version", version=f"dragonsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for mod in COMMAND_MODULES:
        mod.register(sub)
    return parser


#: the attributes the subcommand parsers store their subcommand in, outermost first
_SUBCOMMANDS = ("command", "dice_command", "krynn_command", "event", "action")


def _command_name(args: argparse.Namespace) -> str:
    """The command as typed, e.g. ``krynn battle`` or ``odds breath``."""
    return " ".join(str(getattr(args, k)) for k in _SUBCOMMANDS if getattr(args, k, None))


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as e:
        print(f"{parser.prog} {_command_name(args)}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
