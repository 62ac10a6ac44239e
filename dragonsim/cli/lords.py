"""Commands: rules, sheet, roster, odds (Dragon Lords foundation). Parsing and printing only."""

from __future__ import annotations

import argparse
import importlib
from fractions import Fraction

from .common import count, emit_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="print the rules tables with their provenance",
        description="Print every rules value with its provenance (printed, "
        "derived, published, assumed) and where it is used.",
    )
    p.add_argument(
        "--assumed",
        action="store_true",
        help="list only the assumed values (and where each is used)",
    )
    p.add_argument("--game", choices=("all", "lords", "dice", "krynn"), default="all")
    p.add_argument("--rules", metavar="FILE", help="a TOML file of overrides to apply first")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "sheet",
        help="print a computed Dragon Lords play sheet",
        description="A ready-made dragon by name, or a design written inline: "
        "body=Heavy,wings=Large,breath=Ice,claws=Sharp[,rider=Archer]",
    )
    p.add_argument("dragon", help="ready-made name or inline design")
    p.add_argument("--budget", type=int, default=None, help="refuse a design over this cost")
    p.add_argument("--rules", metavar="FILE", help="a TOML file of rule overrides")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_sheet)

    p = sub.add_parser("roster", help="list the ready-made Dragon Lords dragons")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_roster)

    p = sub.add_parser(
        "odds",
        help="exact probabilities of Dragon Lords events",
        description="Exact odds (fractions and decimals), no sampling.",
    )
    osub = p.add_subparsers(dest="event", metavar="EVENT")
    osub.required = True
    q = osub.add_parser("close-combat", help="win / draw / loss of one close combat")
    q.add_argument("a")
    q.add_argument("b")
    q.add_argument("--tactics", metavar="A,B", help="optional tactics, e.g. Lunge,Defend")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_odds_cc)
    q = osub.add_parser("breath", help="to-hit and damage of one breath attack")
    q.add_argument("attacker")
    q.add_argument("target")
    q.add_argument("--range", type=int, required=True, help="hexes to the target, 1..6")
    q.add_argument("--area", default="dark", help="arc area: dark, grey or light")
    q.add_argument("--altitude-steps", type=int, default=0, help="altitude steps apart")
    q.add_argument(
        "--no-range-modifier",
        action="store_true",
        help="drop the range modifier (as the Example of Play does)",
    )
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_odds_breath)
    p = sub.add_parser(
        "baseline",
        help="write or check the stored baseline win rates",
        description="Baseline win rates in results/baseline.json and a gate "
        "that flags real changes (Holm-corrected), not noise.",
    )
    bsub = p.add_subparsers(dest="action", metavar="ACTION")
    bsub.required = True
    q = bsub.add_parser("write", help="play the baseline matchups and store their counts")
    q.add_argument("-n", type=count, default=200_000, help="games per matchup (default 2e5)")
    q.add_argument("--file", default=None, help="default results/baseline.json")
    q.set_defaults(func=cmd_baseline_write)
    q = bsub.add_parser("check", help="replay on a fresh seed; exit 1 on a significant change")
    q.add_argument("-n", type=count, default=20_000, help="games per matchup (default 2e4)")
    q.add_argument("--seed", type=int, default=7)
    q.add_argument("--alpha", type=float, default=0.001, help="family-wise error (Holm)")
    q.add_argument("--file", default=None, help="default results/baseline.json")
    q.set_defaults(func=cmd_baseline_check)

    q = osub.add_parser("location", help="hit-location distribution for a direction")
    q.add_argument("direction", help="F, FR, RR, R, RL or FL")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_odds_location)


def _rules(path):
    from ..rules import lords_rules

    return lords_rules(file=path) if path else lords_rules()


def _frac(p: Fraction) -> dict:
    return {"fraction": f"{p.numerator}/{p.denominator}", "decimal": float(p)}


def _other_game_assumed(game: str) -> list[dict]:
    """Assumed values of the other games, from their own data modules when present."""
    mod = f"dragonsim.{game}.data"
    fn = getattr(importlib.import_module(mod), "assumed", None)
    rows = []
    for row in fn() if fn else []:
        row = dict(row)
        # the games name these columns differently; print them alike
        row.setdefault("used_in", row.pop("where_used", ""))
        row.setdefault("source", row.pop("reason", ""))
        rows.append(row)
    return rows


def cmd_rules(args) -> int:
    from ..rules import rows_of

    rs = _rules(args.rules)
    rows: list[dict] = []
    if args.game in ("all", "lords"):
        rows += [r for r in rows_of(rs) if not args.assumed or r["provenance"] == "assumed"]
    for game in ("dice", "krynn"):
        if args.game in ("all", game):
            for row in _other_game_assumed(game):
                if not args.assumed or row.get("provenance") == "assumed":
                    rows.append(row)
    if args.json:
        emit_json({"rules_hash": rs.hash, "overrides": rs.overrides, "rules": rows})
        return 0
    width = max((len(r["key"]) for r in rows), default=10)
    if args.game in ("all", "lords"):
        print(
            f"lords rules hash {rs.hash}" + (f"  overrides: {rs.overrides}" if rs.overrides else "")
        )
    last_source = None
    for r in rows:
        print(f"{r['key']:<{width}}  {r['provenance']:<9}  {r['value']}")
        if args.assumed and r.get("source") != last_source:
            print(f"{'':<{width}}  used in: {r.get('used_in', '')}")
            print(f"{'':<{width}}  why: {r.get('source', '')}")
        last_source = r.get("source")
    return 0


def cmd_sheet(args) -> int:
    from ..lords.sheets import design, parse_design, sheet

    rs = _rules(args.rules)
    if args.budget is not None and "=" in args.dragon:
        s = design(**parse_design(args.dragon), budget=args.budget, rules=rs)
    else:
        s = sheet(args.dragon, rules=rs)
        if args.budget is not None and s.cost > args.budget:
            from ..errors import UserError

            raise UserError(
                f"{s.name} costs {s.cost} design points, over the budget of {args.budget}"
            )
    if args.json:
        emit_json(s.to_dict())
    else:
        print(s.render())
    return 0


def cmd_roster(args) -> int:
    from ..lords.sheets import roster

    sheets = roster()
    if args.json:
        emit_json([s.to_dict() for s in sheets])
        return 0
    print(
        f"{'name':<12} {'DP':>3} {'body':<11} {'wings':<7} {'breath':<10} {'claws':<12} "
        f"{'rider':<17} MR CC speed"
    )
    for s in sheets:
        print(
            f"{s.name:<12} {s.cost:>3} {s.body:<11} {s.wings:<7} {s.breath:<10} "
            f"{s.claws:<12} {s.rider:<17} {s.mr:<2} {s.cc:>2} {s.min_speed}-{s.max_speed}"
        )
    return 0


def cmd_odds_cc(args) -> int:
    from ..errors import UserError
    from ..lords import odds
    from ..lords.sheets import sheet

    tactics = None
    if args.tactics:
        parts = [t.strip() for t in args.tactics.split(",")]
        if len(parts) != 2:
            raise UserError(f"--tactics takes two tactics A,B, got {args.tactics!r}")
        tactics = (parts[0], parts[1])
    a, b = sheet(args.a), sheet(args.b)
    w, d, l = odds.close_combat(a, b, tactics=tactics)
    if args.json:
        emit_json(
            {
                "a": a.name,
                "b": b.name,
                "tactics": tactics,
                "win_a": _frac(w),
                "draw": _frac(d),
                "win_b": _frac(l),
            }
        )
        return 0
    print(
        f"close combat {a.name} (cc {a.cc}) vs {b.name} (cc {b.cc})"
        + (f", tactics {tactics[0]} vs {tactics[1]}" if tactics else "")
    )
    for label, p in ((f"{a.name} wins", w), ("draw", d), (f"{b.name} wins", l)):
        print(f"  {label:<20} {str(p):>9}  = {float(p):.6f}")
    return 0


def cmd_odds_breath(args) -> int:
    from ..lords import odds
    from ..lords.sheets import sheet

    a, t = sheet(args.attacker), sheet(args.target)
    res = odds.breath(
        a,
        t,
        distance=args.range,
        area=args.area,
        altitude_steps=args.altitude_steps,
        range_modifier=not args.no_range_modifier,
    )
    if args.json:
        emit_json(
            {
                "attacker": a.name,
                "target": t.name,
                "range": args.range,
                "range_name": odds.range_name(args.range),
                "area": args.area.lower(),
                "altitude_steps": args.altitude_steps,
                "target_number": res["target_number"],
                "p_hit": _frac(res["p_hit"]),
                "expected_damage_if_hit": _frac(res["expected_damage_if_hit"]),
                "expected_damage": _frac(res["expected_damage"]),
                "damage": {str(k): _frac(v) for k, v in res["damage"].items()},
            }
        )
        return 0
    p = res["p_hit"]
    print(
        f"{a.name} breathes ({a.breath}, {a.breath_damage}) at {t.name}: range {args.range} "
        f"({odds.range_name(args.range)}), {args.area.lower()} area, "
        f"{args.altitude_steps} altitude steps apart"
    )
    print(f"  target number {res['target_number']}   P(hit) = {p} = {float(p):.6f}")
    e = res["expected_damage"]
    print(
        f"  damage if hit {a.breath_damage} (mean {float(res['expected_damage_if_hit']):.2f});"
        f" expected damage {e} = {float(e):.4f}"
    )
    return 0


def cmd_odds_location(args) -> int:
    from ..lords import odds

    dist = odds.location(args.direction)
    if args.json:
        emit_json({k: _frac(v) for k, v in dist.items()})
        return 0
    for k, v in dist.items():
        print(f"  {k:<11} {str(v):>6} = {float(v):.4f}")
    return 0


def cmd_baseline_write(args) -> int:
    from ..lords import baseline

    data = baseline.write(args.file or baseline.DEFAULT_FILE, n=args.n)
    for k, v in data["matchups"].items():
        print(f"{k:<46} A wins {v['wins_a'] / v['n']:.4f} of {v['n']:,}")
    print(f"wrote {args.file or baseline.DEFAULT_FILE} in {data['manifest']['seconds']} s")
    return 0


def cmd_baseline_check(args) -> int:
    from ..errors import UserError
    from ..lords import baseline

    if not 0 < args.alpha < 1:
        raise UserError(f"--alpha must be between 0 and 1, got {args.alpha}")
    ok = baseline.check(
        args.file or baseline.DEFAULT_FILE, n=args.n, seed=args.seed, alpha=args.alpha
    )
    return 0 if ok else 1
