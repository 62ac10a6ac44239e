"""What every command shares: argument types, the run options, JSON and summary output.

Game command modules import from here; nothing here imports them, so there is no loop.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import math
import sys
from typing import Any

from ..errors import UserError, parse_count


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line naming the command and ``--help``.

    An argument no command takes is reported by the command it was given to (its own
    ``--help``, not the top level's), with the nearest option it has when one is close."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def parse_args(self, args=None, namespace=None):  # noqa: D401 - argparse API
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            leaf = chosen_parser(self, ns)
            leaf.error(f"unrecognized arguments: {' '.join(extras)}{_nearest(leaf, extras)}")
        return ns


def chosen_parser(parser: argparse.ArgumentParser, ns: argparse.Namespace):
    """The innermost (sub)command parser that ``ns`` was parsed by: ``duel``'s for
    ``duel ...``, ``odds breath``'s for ``odds breath ...``."""
    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(ns, sub.dest, None) if sub is not None else None
        if name not in (sub.choices if sub is not None else {}):
            return parser
        parser = sub.choices[name]


def _nearest(parser: argparse.ArgumentParser, extras: list[str]) -> str:
    """' (did you mean --threads?)' for the unknown options among ``extras`` that are close
    to one of ``parser``'s, or ''."""
    known = [o for o in parser._option_string_actions if o.startswith("--")]
    pairs = []
    for word in extras:
        flag = word.split("=", 1)[0]
        if not flag.startswith("-") or flag == "-":
            continue
        close = difflib.get_close_matches(flag, known, n=1, cutoff=0.6)
        if close:
            pairs.append((flag, close[0]))
    if not pairs:
        return ""
    if len(pairs) == 1:
        return f" (did you mean {pairs[0][1]}?)"
    return " (did you mean " + ", ".join(f"{b} for {a}" for a, b in pairs) + "?)"


def count(text: str) -> int:
    """argparse type for game counts: '1e6', '250_000'."""
    try:
        return parse_count(text)
    except UserError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive_int(text: str) -> int:
    """argparse type for a whole number >= 1 (turn limits, threads)."""
    try:
        v = parse_count(text, "value")
    except UserError:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}") from None
    return v


def seed_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, got {text!r}") from None
    if not 0 <= v < 2**63:
        raise argparse.ArgumentTypeError(f"seed must be between 0 and 2**63-1, got {text!r}")
    return v


def half_width(text: str) -> float:
    """argparse type for a precision target: a half-width in (0, 0.5) such as 0.005."""
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not 0.0 < v < 0.5:
        raise argparse.ArgumentTypeError(
            f"must be a half-width in (0, 0.5) such as 0.005 (+-0.5 pp), got {text!r}"
        )
    return v


SIMULTANEOUS_HELP = (
    "with --precision: cover every rate the stop waits for at once (95%% for all together, "
    "the error split over them; more games) instead of each rate on its own"
)


def add_run_options(
    p: argparse.ArgumentParser, default_n: int = 100_000, precision: bool = False
) -> None:
    """Options every Monte Carlo command shares; ``precision``: also ``--precision`` and
    ``--max-n`` (read them with :func:`n_or_precision`)."""
    p.add_argument(
        "-n",
        type=count,
        default=None if precision else default_n,
        help=f"number of games/trials, e.g. 1e6 (default {default_n:,})",
    )
    if precision:
        p.set_defaults(default_n=default_n)
        p.add_argument(
            "--precision",
            type=half_width,
            default=None,
            metavar="H",
            help="instead of -n: play until every reported rate's 95%% interval (a confidence "
            "sequence, valid however often it is looked at) is within +-H, e.g. 0.005",
        )
        p.add_argument(
            "--max-n",
            type=count,
            default=None,
            help="the most games a --precision run plays (default 1e8)",
        )
        p.add_argument("--simultaneous", action="store_true", help=SIMULTANEOUS_HELP)
    add_seed_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(p)
    add_checkpoint_option(p)


def add_seed_option(p: argparse.ArgumentParser, default: int = 1, what: str = "random seed"):
    """``--seed S``: a whole number ``0..2**63-1`` (``what`` says whose seed it is)."""
    p.add_argument("--seed", type=seed_int, default=default, help=f"{what} (default {default})")


def add_speed_options(p: argparse.ArgumentParser) -> None:
    """``--threads N`` and ``--no-progress``: how a command that plays games runs, never what
    it finds (read them with :func:`speed_of`). Every such command takes both."""
    p.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        help="numba threads (default: all cores); results do not depend on it",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="never show a progress bar (default: one on stderr when it is a terminal)",
    )


def progress_of(args: argparse.Namespace) -> bool | None:
    """The API's ``progress=`` from ``--no-progress``: False, or None (a bar on a terminal)."""
    return False if getattr(args, "no_progress", False) else None


def speed_of(args: argparse.Namespace) -> dict[str, Any]:
    """The API's ``threads=`` and ``progress=`` from :func:`add_speed_options`' options."""
    return {"threads": getattr(args, "threads", None), "progress": progress_of(args)}


def n_or_precision(args: argparse.Namespace) -> dict[str, Any]:
    """The API's ``n=`` or ``precision=``, ``max_n=`` and ``simultaneous=`` from
    :func:`add_run_options`' options; UserError when both -n and --precision are given, or
    --max-n or --simultaneous without --precision."""
    precision = getattr(args, "precision", None)
    simultaneous = bool(getattr(args, "simultaneous", False))
    if precision is None:
        if getattr(args, "max_n", None) is not None:
            raise UserError("--max-n caps a --precision run; with -n, n is the count")
        if simultaneous:
            raise UserError("--simultaneous splits a --precision run's error; give --precision")
        return {"n": args.n if args.n is not None else args.default_n}
    if args.n is not None:
        raise UserError("give either -n (games) or --precision (a half-width), not both")
    _check_reachable(precision, args.max_n)
    return {
        "precision": precision,
        "max_n": args.max_n,
        **({"simultaneous": True} if simultaneous else {}),
    }


def _check_reachable(precision: float, max_n: int | None) -> None:
    """UserError, before any game, when a rate near 1/2 (the widest interval a count can
    have) could not reach ``--precision`` by ``--max-n``: the run would likely end at the cap
    short of its target. Judged on one rate's plan (:func:`~dragonsim.stats.precision_plan`),
    the least any command needs, so a run that could reach its target is never refused."""
    from ..stats import PRECISION_CAP, precision_plan

    cap = PRECISION_CAP if max_n is None else int(max_n)
    if precision_plan(precision, cap).guaranteed:
        return
    need = precision_plan(precision, PRECISION_CAP)
    hint = (
        f"without --max-n a rate near 50% stops by {need.looks[-1]:,} games"
        if need.guaranteed
        else "no --max-n up to 1e8 reaches it"
    )
    raise UserError(
        f"--precision {precision:g} cannot be reached within --max-n {cap:,} games by a rate "
        f"near 50%: raise or drop --max-n ({hint}) or loosen --precision"
    )


def _clean(o: Any) -> Any:
    """Make numpy scalars, tuples and NaN JSON-safe."""
    import numpy as np

    if isinstance(o, dict):
        return {str(k): _clean(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [_clean(v) for v in o]
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating | float):
        f = float(o)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(o, np.ndarray):
        return _clean(o.tolist())
    return o


#: the command line being run (``main`` sets it), written into every JSON result's manifest so
#: ``python -m dragonsim reproduce RESULT.json`` can run it again
ARGV: list[str] | None = None


def emit_json(obj: Any) -> None:
    if ARGV is not None and isinstance(obj, dict):
        man = obj.get("manifest")
        if isinstance(man, dict):
            obj = {**obj, "manifest": {**man, "argv": list(ARGV)}}
        elif man is None:
            obj = {**obj, "manifest": {"argv": list(ARGV)}}
    print(json.dumps(_clean(obj), indent=2))


def show(args: argparse.Namespace, result: Any) -> None:
    """Print a result: one JSON object with ``--json``, else its readable summary."""
    if getattr(args, "json", False):
        emit_json(result.to_dict())
    else:
        print(result.summary())


def add_records_option(p: argparse.ArgumentParser, what: str = "game") -> None:
    """``--records FILE``: one row per game to parquet or CSV, with the run's manifest."""
    p.add_argument(
        "--records",
        metavar="FILE.parquet",
        default=None,
        help=f"write one row per {what} (who won and how) to FILE.parquet or FILE.csv; the "
        "run's manifest (version, seed, sides, bots, rules hash and overrides) goes in the "
        "parquet schema metadata or a FILE.csv.json sidecar",
    )


def check_outputs(args: argparse.Namespace, **suffixes: str) -> None:
    """Refuse, before any game is played, an output file option (``--plot``, ``--csv``: the
    keywords, each with the suffix its writer takes) that could not be written
    (:func:`~dragonsim.errors.check_output`)."""
    from ..errors import check_output

    for option, suffix in suffixes.items():
        path = getattr(args, option, None)
        if path is not None:
            check_output(path, f"--{option.replace('_', '-')} file", (suffix,))


def write_output(path: str, write) -> None:
    """``write(path)``, an OSError (a disk full, a folder removed meanwhile) as one line."""
    try:
        write(path)
    except OSError as e:
        raise UserError(f"cannot write {path!r}: {e.strerror or e}") from None


def save_figure(path: str, figure) -> None:
    """Draw ``figure()`` (off screen) and save it to ``path`` at the project's resolution."""
    import matplotlib

    matplotlib.use("Agg")
    write_output(path, lambda f: figure().savefig(f, dpi=130))


def add_checkpoint_option(p: argparse.ArgumentParser) -> None:
    """``--checkpoint FILE``: save finished blocks as they finish; the same command resumes."""
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        default=None,
        help="save finished games to FILE as they finish; after a kill the same command with "
        "the same FILE resumes and ends with the uninterrupted result",
    )


def finish(args: argparse.Namespace, result: Any, unit: str = "games") -> int:
    """Print a result (:func:`show`) and give the exit code: 0, or for an interrupted run
    (SIGINT / SIGTERM) 130 / 143 after a line on stderr saying how much finished."""
    show(args, result)
    return interrupted_code(result, unit)


def interrupted_code(result: Any, unit: str = "games") -> int:
    """0, or 130 / 143 with one line on stderr when ``result`` was interrupted."""
    from ..runner import interrupt_exit_code

    if not getattr(result, "interrupted", False):
        return 0
    req = getattr(result, "requested", None)
    done = getattr(result, "finished", getattr(result, "n", None))
    what = f"{done:,} of {req:,} {unit} finished" if req and done is not None else "partial result"
    print(f"interrupted: {what} (printed above)", file=sys.stderr)
    return interrupt_exit_code()


def add_rules_option(p: argparse.ArgumentParser) -> None:
    """``--rules basic|advanced|advanced+optional|FILE``: a preset, or one rules file for every game
    (``preset = ...``, then ``[lords]``, ``[dice]``, ``[krynn]`` tables of overrides; each
    command reads its own game's table)."""
    p.add_argument(
        "--rules",
        metavar="basic|advanced|advanced+optional|FILE",
        default=None,
        help="a preset (basic: the basic game; advanced: every advanced rule the rulebook does "
        "not label optional, the Wizard's spells among them; advanced+optional: those and every "
        "rule it labels optional; `python -m dragonsim rules presets` prints the table) "
        'or a TOML rules file: an optional preset = "advanced", then [lords], [dice] and '
        "[krynn] tables of overrides, each command reads its own game's "
        "(`python -m dragonsim rules` lists every key and switch)",
    )


def rules_from(args: argparse.Namespace, game: str):
    """The RuleSet of ``game`` in force for a command: the defaults, then ``--rules``: a
    preset's switches, or a file's preset and ``[game]`` table."""
    from ..rules import game_rules

    return game_rules(game, file=getattr(args, "rules", None))


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """``--backend local|dask`` and ``--scheduler local:N|ADDRESS`` (read them with
    :func:`backend_options`)."""
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="where the blocks of games run: local (numba threads here, the default) or dask "
        "(each block a dask.distributed task; the result is identical, bit for bit)",
    )
    p.add_argument(
        "--scheduler",
        metavar="local:N|ADDRESS",
        default=None,
        help="with --backend dask: local:N starts N worker processes on 127.0.0.1 for this "
        "command (default local:2), or the address of a running scheduler such as "
        "tcp://HOST:8786; the workers need dragonsim installed",
    )


@contextlib.contextmanager
def backend_options(args: argparse.Namespace):
    """``{"backend": ..., "dask_client": ...}`` for the API from :func:`add_backend_options`'
    options; a ``local:N`` cluster is shut down on leaving. UserError when dask or
    distributed is missing, or ``--scheduler`` is given without ``--backend dask``."""
    from ..runner import dask_scheduler

    backend = getattr(args, "backend", "local")
    scheduler = getattr(args, "scheduler", None)
    if backend != "dask":
        if scheduler is not None:
            raise UserError("--scheduler needs --backend dask")
        yield {"backend": "local", "dask_client": None}
        return
    with dask_scheduler(scheduler if scheduler is not None else "local:2") as client:
        yield {"backend": "dask", "dask_client": client}
