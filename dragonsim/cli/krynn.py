"""``python -m dragonsim krynn ...``: battles, battlefields, sweeps and conflicts.

Parsing and formatting only; the work is in :mod:`dragonsim.krynn.api`, imported when a
command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UserError
from .common import progress_of


def _int_arg(what: str):
    def conv(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, got {text!r}"
            ) from None

    return conv


def register(subparsers) -> None:
    """Add the ``krynn`` command and its subcommands."""
    from .common import add_records_option, add_rules_option, add_run_options

    p = subparsers.add_parser(
        "krynn",
        help="Warriors of Krynn: battle lines, tile control, conflicts",
        description="Warriors of Krynn: battles on a battle tile, battlefields, sweeps, "
        "conflicts. Assumed dice and unit decks: see 'krynn assumed'.",
    )
    sub = p.add_subparsers(dest="krynn_command", metavar="SUBCOMMAND", parser_class=type(p))
    sub.required = True

    b = sub.add_parser(
        "battle",
        help="battles on one tile until a side controls it",
        description="Battles on one battle tile, turn after turn, until one side controls it.",
    )
    _battle_options(b)
    add_run_options(b, precision=True)
    add_records_option(b)
    b.set_defaults(func=_battle)

    s = sub.add_parser(
        "sweep",
        help="a battle for each value of a unit count or token count",
        description="Repeat 'krynn battle' for each value of one quantity, on "
        "the same seed (common random numbers).",
    )
    _battle_options(s)
    s.add_argument(
        "--vary",
        required=True,
        help="what to vary: alliance.LINE, army.LINE, barricades.LINE, "
        "tactics.LINE, army_barricades.LINE, army_tactics.LINE or heroes",
    )
    s.add_argument("--values", required=True, help="values, e.g. '0,1,2,3' or '0..4'")
    add_run_options(s)
    add_records_option(s, "game and value")
    s.set_defaults(func=_sweep)

    f = sub.add_parser(
        "battlefield",
        help="a scenario on a row of battle tiles",
        description="A scenario on a row of battle tiles: flank tokens move on "
        "control; ends in win, hold or loss.",
    )
    f.add_argument(
        "--scenario",
        metavar="FILE",
        help="TOML file with control_limit and [[tile]] tables (keys as dragonsim.krynn.Tile)",
    )
    f.add_argument(
        "--tiles",
        type=_int_arg("--tiles"),
        default=3,
        help="number of identical tiles built from --alliance/--army (default 3)",
    )
    f.add_argument("--alliance", help="units per line on every tile, e.g. foot=3,missile=2")
    f.add_argument("--army", help="Dragon Army units per line on every tile")
    f.add_argument("--barricades", help="Alliance barricades per line on every tile")
    f.add_argument(
        "--control-limit",
        type=_int_arg("--control-limit"),
        default=None,
        help="Dragon Army control limit: the scenario is lost when it controls "
        "this many tiles (default: none)",
    )
    _common_battle(f, default_battle="mixed", default_turns=200)
    add_run_options(f)
    add_records_option(f, "scenario")
    f.set_defaults(func=_battlefield)

    c = sub.add_parser(
        "conflict",
        help="a conflict's exact and simulated success",
        description="Exact success probability of a conflict beside the "
        "simulated one; without --dice, the best way to spend "
        "--actions and --cards.",
    )
    c.add_argument(
        "--difficulty",
        type=_int_arg("--difficulty"),
        required=True,
        help="the conflict's difficulty (1-20)",
    )
    c.add_argument(
        "--dice",
        type=_int_arg("--dice"),
        default=None,
        help="roll this many battle dice once (default: best plan)",
    )
    c.add_argument(
        "--actions",
        type=_int_arg("--actions"),
        default=4,
        help="actions available for the plan (default 4)",
    )
    c.add_argument(
        "--cards",
        type=_int_arg("--cards"),
        default=0,
        help="ability cards of the conflict's ability to discard (default 0)",
    )
    c.add_argument(
        "--mastered",
        action="store_true",
        help="the conflict's ability is mastered (difficulty - 1)",
    )
    add_rules_option(c)
    add_run_options(c)
    add_records_option(c, "trial")
    c.set_defaults(func=_conflict)

    a = sub.add_parser("assumed", help="list the assumed (and printed) rules values")
    a.add_argument("--json", action="store_true", help="print JSON")
    add_rules_option(a)
    a.set_defaults(func=_assumed)


def _common_battle(p, *, default_battle: str = "skirmish", default_turns: int = 100) -> None:
    p.add_argument(
        "--battle",
        default=default_battle,
        help=f"skirmish, all-out or mixed (default {default_battle})",
    )
    p.add_argument(
        "--heroes",
        type=_int_arg("--heroes"),
        default=0,
        help="heroes on the tile who may absorb hits as stress (0-5, default 0)",
    )
    p.add_argument(
        "--hero-policy",
        default=None,
        help="when heroes absorb hits: never, removals, all, last (default last)",
    )
    p.add_argument(
        "--tier", default=None, help="recruit, veteran or legendary (maximum stress 4, 5, 6)"
    )
    p.add_argument(
        "--max-turns",
        type=_int_arg("--max-turns"),
        default=default_turns,
        help=f"battles before a game counts as undecided (default {default_turns})",
    )
    from .common import add_rules_option

    add_rules_option(p)


def _battle_options(p) -> None:
    p.add_argument(
        "--alliance",
        required=True,
        help="Alliance units per line, e.g. foot=3,missile=2,mounted=2 (0-6 each)",
    )
    p.add_argument("--army", required=True, help="Dragon Army units per line")
    p.add_argument("--barricades", help="Alliance barricades per line, e.g. foot=2")
    p.add_argument("--tactics", help="Alliance tactic tokens per line, e.g. missile=1")
    p.add_argument("--army-barricades", help="Dragon Army barricades per line")
    p.add_argument("--army-tactics", help="Dragon Army tactic tokens per line")
    p.add_argument("--alliance-shaken", help="Alliance units starting shaken, per line")
    p.add_argument("--army-shaken", help="Dragon Army units starting shaken, per line")
    p.add_argument(
        "--alliance-commander",
        default=None,
        help="none, rally, fortify, tactician, volley, strike, terror",
    )
    p.add_argument("--army-commander", default=None, help="as --alliance-commander")
    _common_battle(p)


def _rules(args):
    """The rules in force: the defaults with the ``[krynn]`` table of ``--rules FILE``."""
    from ..krynn.data import KrynnRules
    from ..rules import krynn_rules

    path = getattr(args, "rules", None)
    return KrynnRules.from_ruleset(krynn_rules(file=path)) if path is not None else None


def _battle_kwargs(args) -> dict[str, Any]:
    return dict(
        alliance=args.alliance,
        army=args.army,
        barricades=args.barricades,
        tactics=args.tactics,
        army_barricades=args.army_barricades,
        army_tactics=args.army_tactics,
        alliance_shaken=args.alliance_shaken,
        army_shaken=args.army_shaken,
        alliance_commander=args.alliance_commander,
        army_commander=args.army_commander,
        battle_type=args.battle,
        heroes=args.heroes,
        hero_policy=args.hero_policy,
        tier=args.tier,
        max_turns=args.max_turns,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
        progress=progress_of(args),
        rules=_rules(args),
    )


def _print(result, args, unit: str = "games") -> int:
    from .common import finish

    return finish(args, result, unit)


def _battle(args) -> int:
    from ..krynn.api import battle
    from .common import n_or_precision

    kw = {**_battle_kwargs(args), **n_or_precision(args)}
    if "precision" in kw:
        kw.pop("n", None)
    res = battle(**kw, checkpoint=args.checkpoint, records=args.records)
    return _print(res, args)


def parse_values(text: str) -> list[int]:
    """'0,1,2' or '0..3' (inclusive) -> list of ints."""
    text = text.strip()
    try:
        if ".." in text:
            a, b = text.split("..", 1)
            lo, hi = int(a), int(b)
            if hi < lo or hi - lo > 100:
                raise ValueError
            return list(range(lo, hi + 1))
        vals = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UserError(
            f"--values must be whole numbers like '0,1,2' or a range like '0..4', got {text!r}"
        ) from None
    if not vals:
        raise UserError("--values needs at least one value")
    return vals


def _sweep(args) -> int:
    from ..krynn.api import sweep
    from .common import finish

    kw = _battle_kwargs(args)
    res = sweep(
        args.vary,
        parse_values(args.values),
        checkpoint=args.checkpoint,
        records=args.records,
        **kw,
    )
    return finish(args, res, "values")


def _battlefield(args) -> int:
    from ..krynn.api import Tile, battlefield
    from ..rules.core import read_toml

    limit = args.control_limit
    if args.scenario is not None:
        data = read_toml(args.scenario, "scenario file")
        unknown = sorted(set(data) - {"tile", "control_limit"})
        if unknown:
            raise UserError(
                f"scenario file {str(args.scenario)!r}: unknown key(s) {', '.join(unknown)}; "
                "allowed: control_limit, [[tile]]"
            )
        raw = data.get("tile")
        if not isinstance(raw, list) or not raw:
            raise UserError("scenario file needs at least one [[tile]] table")
        tiles = raw
        if limit is None:
            limit = data.get("control_limit", 0)
    else:
        if not args.alliance or not args.army:
            raise UserError("battlefield needs --scenario FILE or both --alliance and --army")
        if not 1 <= args.tiles <= 9:
            raise UserError(f"--tiles must be between 1 and 9, got {args.tiles}")
        tiles = [
            Tile(alliance=args.alliance, army=args.army, alliance_barricades=args.barricades)
        ] * args.tiles
    res = battlefield(
        tiles,
        control_limit=0 if limit is None else limit,
        battle_type=args.battle,
        heroes=args.heroes,
        hero_policy=args.hero_policy,
        tier=args.tier,
        max_turns=args.max_turns,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
        progress=progress_of(args),
        rules=_rules(args),
        checkpoint=args.checkpoint,
        records=args.records,
    )
    return _print(res, args, "scenarios")


def _conflict(args) -> int:
    from ..krynn.api import conflict

    res = conflict(
        args.difficulty,
        dice=args.dice,
        actions=args.actions,
        cards=args.cards,
        mastered=args.mastered,
        n=args.n,
        seed=args.seed,
        threads=args.threads,
        progress=progress_of(args),
        rules=_rules(args),
        checkpoint=args.checkpoint,
        records=args.records,
    )
    return _print(res, args, "trials")


def _assumed(args) -> int:
    from ..krynn.data import assumed
    from .common import emit_json

    rows = assumed(_rules(args))
    if args.json:
        emit_json(rows)
    else:
        for r in rows:
            shipped = (
                f"   (shipped: {r['default']}, {r['default_provenance']})"
                if r["provenance"] == "override"
                else ""
            )
            print(f"{r['key']:<34} [{r['provenance']}] {r['value']}{shipped}")
            print(f"{'':<34} used in: {r['where_used']}; {r['reason']}")
    return 0
