"""Command: ``duel`` (many complete Dragon Lords games between two dragons). Parsing and
printing only; the work is :func:`dragonsim.lords.api.duel`."""

from __future__ import annotations

import argparse
import sys

from ..cli import add_run_options, emit_json, positive_int
from .policies import POLICIES

DEFAULT_TURN_LIMIT = 200  # mirrors engine.DEFAULT_TURN_LIMIT without importing numba for --help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "duel",
        help="play many Dragon Lords games between two dragons",
        description="Play complete basic-rules Dragon Lords games (setup, initiative, speed, "
        "movement, engagement, breath and close combat, serious damage) between two dragons "
        "and report who wins, with Wilson 95% intervals. Each dragon is a ready-made name or "
        "an inline design such as body=Heavy,wings=Large,breath=Ice,claws=Sharp.",
    )
    p.add_argument("a", help="first dragon: ready-made name or inline design")
    p.add_argument("b", help="second dragon: ready-made name or inline design")
    add_run_options(p, default_n=100_000)
    p.add_argument("--policy", default="hunter",
                   help=f"bot for both dragons: {', '.join(POLICIES)} (default hunter)")
    p.add_argument("--policies", metavar="P,Q", default=None,
                   help="one bot per dragon, e.g. hunter,random (overrides --policy)")
    p.add_argument("--turn-limit", type=positive_int, default=DEFAULT_TURN_LIMIT,
                   help=f"turns before a game is a stalemate draw (default {DEFAULT_TURN_LIMIT})")
    p.add_argument("--records", metavar="FILE.parquet", default=None,
                   help="write one row per game (winner, turns, damage dealt, ...) to parquet")
    p.set_defaults(func=cmd_duel)


def cmd_duel(args: argparse.Namespace) -> int:
    from .api import duel

    res = duel(args.a, args.b, n=args.n, seed=args.seed, policy=args.policy,
               policies=args.policies, turn_limit=args.turn_limit, records=args.records,
               threads=args.threads, progress=False if args.no_progress else None)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    if res.interrupted:
        print(f"interrupted: {res.n:,} of {res.requested:,} games finished", file=sys.stderr)
        return 130
    return 0
