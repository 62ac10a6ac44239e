"""The command line: parse, validate, call the public API, format. Nothing else lives here.

One module per group of commands (:mod:`.lords`: rules, sheets, odds, baselines; :mod:`.duel`:
duel, battle and the balance studies; :mod:`.dice`; :mod:`.krynn`), each exposing
``register(subparsers)``, all sharing :mod:`.common`. Handlers import the heavy modules only
when they run, so ``--help`` is instant and a command warms only the kernels it uses.

Exit codes: 0 success (1: a check or a reproduction that failed), 2 bad input (one line on
stderr, never a traceback), 130 / 143 interrupted by SIGINT (Ctrl-C) / SIGTERM: what finished
is printed and marked interrupted, in text and in JSON.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import warnings

from .. import __version__
from ..errors import UserError
from . import design, dice, duel, krynn, lords, plan, tools
from .common import Parser

#: the command modules, each with ``register(subparsers)``
COMMAND_MODULES = (lords, duel, design, dice, krynn, plan, tools)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m dragonsim",
        description="Monte Carlo balance analysis and exact odds of three dragon tabletop "
        "games: Dragon Lords, Dragon Dice and Warriors of Krynn.",
    )
    parser.add_argument("--version", action="version", version=f"dragonsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for mod in COMMAND_MODULES:
        mod.register(sub)
    # ``reproduce`` runs a saved command line through main again; the command modules sit
    # below this package and never import it, so it reaches main through the parsed arguments
    parser.set_defaults(run_argv=main)
    return parser


#: the attributes the subcommand parsers store their subcommand in, outermost first
_SUBCOMMANDS = ("command", "dice_command", "krynn_command", "event", "action")


def _command_name(args: argparse.Namespace) -> str:
    """The command as typed, e.g. ``krynn battle`` or ``odds breath``."""
    return " ".join(str(getattr(args, k)) for k in _SUBCOMMANDS if getattr(args, k, None))


def main(argv: list[str] | None = None) -> int:
    from ..runner import Interrupted, handle_signals, interrupt_exit_code
    from . import common

    parser = build_parser()
    args = parser.parse_args(argv)
    shown, warnings.showwarning = warnings.showwarning, _one_line_warning
    common.ARGV = list(sys.argv[1:] if argv is None else argv)
    try:
        with handle_signals():
            return int(args.func(args) or 0)
    except UserError as e:
        print(f"{parser.prog} {_command_name(args)}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        code = e.exit_code if isinstance(e, Interrupted) else interrupt_exit_code()
        name = signal.Signals(code - 128).name if code > 128 else "SIGINT"
        if isinstance(e, Interrupted) and e.during_compile:
            print(
                f"interrupted ({name}) while the kernels were compiling: nothing was played; "
                "the next run compiles again (or run `python -m dragonsim warmup` once)",
                file=sys.stderr,
            )
        else:
            print(
                f"interrupted ({name}) before any game finished: nothing to report", file=sys.stderr
            )
        _exit_now_if_busy(code)
        return code
    except BrokenPipeError:
        return 0
    finally:
        common.ARGV = None
        warnings.showwarning = shown


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line on stderr (``warning: ...``), not Python's file and line."""
    print(f"warning: {message}", file=sys.stderr if file is None else file)


def _exit_now_if_busy(code: int) -> None:
    """Exit at once while a worker thread still runs a kernel (an interrupted compile): the
    interpreter would otherwise wait on, or tear down under, running numba code."""
    if any(t.name == "dragonsim-blocks" and t.is_alive() for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    raise SystemExit(main())
