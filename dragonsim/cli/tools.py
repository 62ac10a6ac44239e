"""Commands: ``warmup`` (compile every kernel ahead of time) and ``reproduce`` (re-run a saved
``--json`` result from its manifest and say whether it matches)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from typing import Any

from ..errors import UserError, read_json

#: what a re-run may change without changing the result: timings, the machine, the run's date
VOLATILE = frozenset(
    {
        "seconds",
        "compile_seconds",
        "created",
        "threads",
        "argv",
        "resumed",
        "python",
        "numpy",
        "numba",
        "dragonsim",
    }
)
#: the options of a saved command line that a reproduction drops (they write files)
DROPPED = ("--checkpoint", "--records")
#: saved results larger than this are refused (a result is a small JSON object)
MAX_RESULT_BYTES = 64 * 1024 * 1024


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile every kernel of the three games once, ahead of time",
        description="Compile (or load from numba's on-disk cache) every kernel of Dragon "
        "Lords, Dragon Dice and Warriors of Krynn, so that the first real command starts at "
        "once. Needed once per machine and dragonsim version; takes a few minutes on 2 cores.",
    )
    p.add_argument(
        "--game",
        choices=("all", "lords", "dice", "krynn"),
        default="all",
        help="only this game's kernels (default all)",
    )
    p.set_defaults(func=cmd_warmup)

    p = sub.add_parser(
        "reproduce",
        help="re-run a saved --json result from its manifest; exit 0 if it matches, 1 if not",
        description="Read RESULT.json (the output of any command run with --json), run the "
        "command line its manifest recorded again (without --checkpoint and --records), and "
        "compare every value except timings, dates and library versions. Exit 0 when all "
        "match, 1 when any differs (the differences are listed).",
    )
    p.add_argument("result", metavar="RESULT.json", help="a saved --json result")
    p.set_defaults(func=cmd_reproduce)


def cmd_warmup(args: argparse.Namespace) -> int:
    from ..warmup import GAMES, warmup

    names = {"lords": "Dragon Lords", "dice": "Dragon Dice", "krynn": "Warriors of Krynn"}
    games = list(GAMES) if args.game == "all" else [names[args.game]]
    warmup(games)
    return 0


def saved_argv(data: Any, path: str) -> list[str]:
    """The command line a saved result's manifest recorded, less the options that write
    files; a UserError when there is none."""
    man = data.get("manifest") if isinstance(data, dict) else None
    argv = man.get("argv") if isinstance(man, dict) else None
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        raise UserError(
            f"result file {path!r} has no command line in its manifest (manifest.argv): only "
            "results printed with --json by this version of dragonsim can be reproduced"
        )
    if argv[0] in ("reproduce", "warmup"):
        raise UserError(f"result file {path!r} records `{argv[0]}`, not a result")
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in DROPPED:
            skip = True
            continue
        if any(a.startswith(d + "=") for d in DROPPED):
            continue
        out.append(a)
    if "--json" not in out:
        out.append("--json")
    return out


def differences(saved: Any, now: Any, where: str = "") -> list[str]:
    """Every value that differs between two JSON results, ``VOLATILE`` keys ignored."""
    if isinstance(saved, dict) and isinstance(now, dict):
        out = []
        for k in sorted(set(saved) | set(now)):
            if k in VOLATILE:
                continue
            if k not in now or k not in saved:
                out.append(f"{where}{k}: {'missing now' if k not in now else 'new'}")
                continue
            out += differences(saved[k], now[k], f"{where}{k}.")
        return out
    if isinstance(saved, list) and isinstance(now, list):
        if len(saved) != len(now):
            return [f"{where.rstrip('.')}: {len(saved)} entries saved, {len(now)} now"]
        out = []
        for i, (a, b) in enumerate(zip(saved, now, strict=True)):
            out += differences(a, b, f"{where}{i}.")
        return out
    if saved != now:
        return [f"{where.rstrip('.')}: saved {json.dumps(saved)}, now {json.dumps(now)}"]
    return []


def cmd_reproduce(args: argparse.Namespace) -> int:
    data = read_json(args.result, "result file", limit=MAX_RESULT_BYTES)
    argv = saved_argv(data, args.result)
    print(f"re-running: python -m dragonsim {' '.join(argv)}", file=sys.stderr)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = args.run_argv(argv)  # the command line's main (see build_parser)
    if code != 0:
        print(f"does not reproduce: the command exited with {code}")
        return 1 if code in (0, 1, 2) else code
    try:
        now = json.loads(buf.getvalue())
    except json.JSONDecodeError:
        print("does not reproduce: the command did not print one JSON object")
        return 1
    diff = differences(data, now)
    versions = {
        k: (data["manifest"].get(k), now.get("manifest", {}).get(k))
        for k in ("dragonsim", "numba", "numpy")
        if data["manifest"].get(k) != now.get("manifest", {}).get(k)
    }
    if versions:
        print(
            "note: other versions now: "
            + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in versions.items())
        )
    if diff:
        print(f"does not reproduce: {len(diff)} value(s) differ")
        for d in diff[:20]:
            print(f"  {d}")
        if len(diff) > 20:
            print(f"  ... and {len(diff) - 20} more")
        return 1
    print(f"reproduced: every value of {args.result} matches (timings and versions aside)")
    return 0
