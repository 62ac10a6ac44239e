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

    p = sub.add_parser(
        "battle",
        help="play many free-for-all or team Dragon Lords games (2-8 dragons)",
        description="Free-for-all (last dragon in the air wins) or team games (--teams) of 2-8 "
        "dragons, or a named odd-player pairing from the rulebook: basic-3, basic-5, basic-7, "
        "advanced-3, advanced-5, advanced-5b, advanced-7.",
    )
    p.add_argument("dragons", nargs="+",
                   help="dragons (ready-made names or inline designs), or one pairing name")
    p.add_argument("--teams", metavar="T,T,...", default=None,
                   help="one team number per dragon, e.g. 0,0,1 (default: free-for-all)")
    add_run_options(p, default_n=10_000)
    p.add_argument("--policy", default="hunter",
                   help=f"bot for every dragon: {', '.join(POLICIES)} (default hunter)")
    p.add_argument("--policies", metavar="P,Q,...", default=None,
                   help="one bot per dragon (overrides --policy)")
    p.add_argument("--turn-limit", type=positive_int, default=DEFAULT_TURN_LIMIT,
                   help=f"turns before a game is a stalemate draw (default {DEFAULT_TURN_LIMIT})")
    p.set_defaults(func=cmd_battle)


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


def cmd_battle(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..rules.lords import ROSTER, TEAM_PAIRINGS
    from .api import battle

    dragons = args.dragons[0] if len(args.dragons) == 1 else args.dragons
    if isinstance(dragons, str) and (dragons.lower() in {r.lower() for r in ROSTER}
                                     or "=" in dragons):
        raise UserError(f"a battle needs 2..8 dragons, or one pairing name "
                        f"({', '.join(TEAM_PAIRINGS)}); got only {dragons!r}")
    teams = None
    if args.teams is not None:
        try:
            teams = [int(t) for t in args.teams.split(",")]
        except ValueError:
            raise UserError(f"--teams takes whole numbers such as 0,0,1, got {args.teams!r}"
                            ) from None
    res = battle(dragons, n=args.n, teams=teams, seed=args.seed, policy=args.policy,
                 policies=args.policies, turn_limit=args.turn_limit, threads=args.threads,
                 progress=False if args.no_progress else None)
    if args.json:
        emit_json({"dragons": res.dragons, "teams": res.teams, "policies": res.policies,
                   "n": res.n, "seed": res.seed, "wins": res.wins, "draws": res.draws,
                   "win_rates": [r.rate for r in res.rates],
                   "ci": [[r.lo, r.hi] for r in res.rates], "draw_rate": res.rate_draw.rate,
                   "mean_turns": res.mean_turns, "turn_limit_hits": res.turn_limit_hits,
                   "seconds": res.seconds, "manifest": res.manifest})
    else:
        print(res.summary())
    if res.interrupted:
        print(f"interrupted: {res.n:,} games finished", file=sys.stderr)
        return 130
    return 0
